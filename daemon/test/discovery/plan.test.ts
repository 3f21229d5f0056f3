// plan.ts, the one place that decides what of discovery runs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { emptyConfig } from '../../src/config/model.js';
import { discoveryPlan, NOTHING, planKey } from '../../src/services/discovery/plan.js';

test('DISCOVERY=off: nothing runs, whatever the configuration and the API port say', () => {
  const config = emptyConfig();
  assert.equal(config.sap.enabled && config.mdns.enabled && config.sap.announcer.enabled, true);
  for (const port of [null, 8443]) {
    assert.deepEqual(discoveryPlan(false, config, port), NOTHING);
    assert.deepEqual(Object.values(discoveryPlan(false, config, port)).map(planKey), ['', '', '']);
  }
  const on = discoveryPlan(true, config, 8443);
  assert.ok(on.listener && on.announcer && on.mdns);
  assert.equal(on.mdns.apiPort, 8443);
});

test('each part runs as its own settings say, and restarts only when they change', () => {
  const config = emptyConfig();
  config.sap.announcer.enabled = false;
  config.mdns.advertise = false;
  config.mdns.browse = false;
  const plan = discoveryPlan(true, config, 8443);
  assert.deepEqual([!!plan.listener, plan.announcer, plan.mdns], [true, null, null]);
  const before = planKey(plan.listener);
  config.sap.listener.auto_add_sources = true;
  config.sap.listener.max_streams = 10;
  assert.equal(planKey(discoveryPlan(true, config, 8443).listener), before, 'no restart');
  config.sap.listener.port = 19875;
  assert.notEqual(planKey(discoveryPlan(true, config, 8443).listener), before);
  config.sap.enabled = false;
  assert.deepEqual(discoveryPlan(true, config, 8443), NOTHING);
});
