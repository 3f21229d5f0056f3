// What a connection has not sent yet. A socket's own write buffer is in Node (`writableLength`,
// and a WebSocket's `bufferedAmount`, which counts it); what the kernel holds in the TCP send
// queue is not, and is read with SIOCOUTQ through the engine's binding.
import { tcpSendQueue } from '@tributary/native';

type Handle = { _handle?: { fd?: number }; _parent?: Handle } | null | undefined;

/**
 * The kernel's send queue of a connection, in bytes (through TLS too: Node keeps the
 * descriptor on the handle of the TCP socket under a TLS one); 0 when it cannot be read.
 */
export function kernelSendQueue(socket: unknown): number {
  let handle = socket as Handle;
  for (let depth = 0; handle && depth < 3; depth++, handle = handle._parent) {
    const fd = handle._handle?.fd;
    if (typeof fd === 'number' && fd >= 0) return tcpSendQueue(fd) ?? 0;
  }
  return 0;
}
