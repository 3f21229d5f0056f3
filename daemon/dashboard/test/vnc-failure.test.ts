// What the VNC viewer says when the daemon's bridge closed the socket: its reason, and what to
// check (an unreachable host; a service that is not a VNC server; no reason at all).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { failure } from '../src/features/vnc/failure';

test("the viewer's failure line carries the bridge's reason and what to check", () => {
  const host = '127.0.0.1:8080';
  assert.equal(
    failure(
      {
        code: 4503,
        reason: `${host} is not a VNC server: it did not greet with an RFB protocol version`,
      },
      'PC',
      host,
    ),
    `The desktop could not be opened: ${host} is not a VNC server: it did not greet with an RFB ` +
      'protocol version. Check the VNC host and port of PC (Edit): this server connects only to a VNC server.',
  );
  assert.equal(
    failure(
      { code: 4504, reason: `${host} sent no VNC greeting within 5 s: is it a VNC server?` },
      'PC',
      host,
    ),
    `The desktop could not be opened: ${host} sent no VNC greeting within 5 s: is it a VNC ` +
      'server? Check the VNC host and port of PC (Edit): this server connects only to a VNC server.',
  );
  assert.equal(
    failure(
      { code: 4502, reason: `cannot reach ${host}: connect ECONNREFUSED ${host}` },
      'PC',
      host,
    ),
    `The connection to the desktop failed: cannot reach ${host}: connect ECONNREFUSED ${host}. ` +
      `Check that a VNC server runs on ${host} and that this server can reach it.`,
  );
  assert.equal(
    failure({ code: 1006, reason: '' }, 'PC', host),
    `The connection to the desktop failed. Check that a VNC server runs on ${host} and that this server can reach it.`,
  );
  assert.equal(failure(null, 'PC', host), failure({ code: 1006, reason: '' }, 'PC', host));
  assert.equal(
    failure(
      { code: 1009, reason: 'the viewer sent more than 4096 bytes before x greeted' },
      'PC',
      host,
    ),
    'The connection to the desktop failed: the viewer sent more than 4096 bytes before x greeted.',
  );
});
