// The page's one /ws/levels socket: subscriptions share it, each is sent once, a reconnect
// subscribes them again, and the socket closes only a moment after the last one ends.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LevelSocket, type LevelSocketLike, subscriptionKey } from '../src/api/levels';

class FakeSocket {
  readyState = 0;
  sent: unknown[] = [];
  closed = false;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  send(text: string) {
    assert.equal(this.readyState, 1, 'sent before the socket opened');
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.closed = true;
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  drop() {
    this.readyState = 3;
    this.onclose?.();
  }
  deliver(message: object) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
}

const levels = (sinks: string[]) => ({
  type: 'levels',
  sinks: sinks.map((config_id) => ({ config_id, peak: [0.5] })),
  sources: [],
});

test('three subscriptions, one socket; each subscribed once and again after a reconnect', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const sockets: FakeSocket[] = [];
  const feed = new LevelSocket(() => {
    const socket = new FakeSocket();
    sockets.push(socket);
    return socket as unknown as LevelSocketLike;
  });
  const got: string[] = [];
  const stopKitchen = feed.subscribe({ detail: 'meter' }, () => got.push('kitchen meter'));
  const stopDen = feed.subscribe({ detail: 'meter' }, () => got.push('den meter'));
  const stopSource = feed.subscribe({ source: 'pc', detail: 'meter' }, () => got.push('source'));
  assert.equal(sockets.length, 1);
  sockets[0]!.open();
  const stopVisualizer = feed.subscribe({ sink: 'k' }, () => got.push('visualizer'));
  assert.equal(sockets.length, 1);
  assert.deepEqual(sockets[0]!.sent, [
    { type: 'subscribe', id: 's1', detail: 'meter' },
    { type: 'subscribe', id: 's2', source: 'pc', detail: 'meter' },
    { type: 'subscribe', id: 's3', sink: 'k' },
  ]);
  sockets[0]!.deliver(levels(['k']));
  const complaints = t.mock.method(console, 'error', () => undefined);
  sockets[0]!.deliver({
    type: 'error',
    message: 'id must be at most 64 characters long',
    details: [],
  });
  assert.equal(complaints.mock.callCount(), 1, 'a refusal is shown, not swallowed');
  sockets[0]!.onmessage?.({ data: 'not json' });
  assert.deepEqual(got, ['kitchen meter', 'den meter', 'source', 'visualizer']);

  // One meter of two goes: the subscription stays; the visualizer goes: it is unsubscribed.
  stopDen();
  stopVisualizer();
  assert.deepEqual(sockets[0]!.sent.slice(3), [{ type: 'unsubscribe', id: 's3' }]);

  // The daemon restarts: a second later a new socket subscribes what is still wanted.
  sockets[0]!.drop();
  t.mock.timers.tick(1000);
  assert.equal(sockets.length, 2);
  sockets[1]!.open();
  assert.deepEqual(
    sockets[1]!.sent.map((m) => (m as { id: string }).id),
    ['s1', 's2'],
  );

  // The last subscription ends: the socket lingers for the next view, then closes.
  stopKitchen();
  stopSource();
  t.mock.timers.tick(1000);
  assert.equal(sockets[1]!.closed, false);
  const again = feed.subscribe({ detail: 'meter' }, () => undefined);
  t.mock.timers.tick(5000);
  assert.equal(sockets[1]!.closed, false, 'a new subscription keeps it');
  assert.equal(sockets.length, 2);
  again();
  t.mock.timers.tick(2000);
  assert.equal(sockets[1]!.closed, true);
  sockets[1]!.drop();
  t.mock.timers.tick(5000);
  assert.equal(sockets.length, 2, 'no reconnect with nothing to watch');
});

test("a long query (a group's members) still gets a short id, within the daemon's 64", () => {
  const sockets: FakeSocket[] = [];
  const feed = new LevelSocket(() => {
    const socket = new FakeSocket();
    sockets.push(socket);
    return socket as unknown as LevelSocketLike;
  });
  const ids = Array.from({ length: 8 }, (_, i) => `0b75de54-fae7-406d-a41e-9a5ff9c41ad${i}`);
  feed.subscribe({ source: ids.join(','), detail: 'meter' }, () => undefined);
  sockets[0]!.open();
  const [sent] = sockets[0]!.sent as { id: string; source: string }[];
  assert.equal(sent!.source, ids.join(','));
  assert.ok(sent!.id.length <= 64, sent!.id);
});

test('subscription keys are the query in a fixed order', () => {
  assert.equal(subscriptionKey({}), 'detail=full');
  assert.equal(
    subscriptionKey({ detail: 'full', source: 'b', sink: 'a' }),
    'sink=a&source=b&detail=full',
  );
});
