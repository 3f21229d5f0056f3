import { Sink, SinkInput, SinkPatch } from '../../schema/sink.js';
import { entityRoutes } from '../entity-routes.js';

/** /sinks: where audio goes (devices and sink groups). */
export default entityRoutes({
  kind: 'sink',
  tag: 'Sinks',
  noun: 'Sink',
  entity: Sink,
  input: SinkInput,
  patch: SinkPatch,
  renameNote: 'rewrites the sink groups and routes that name it',
});
