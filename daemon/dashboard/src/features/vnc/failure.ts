// What the VNC viewer says when its connection failed: the reason the daemon's bridge closed the
// socket with (daemon/src/routes/vnc/bridge.ts), and what to check.

/** Close codes of the bridge. */
const CLOSE_UNREACHABLE = 4502;
const CLOSE_NOT_VNC = 4503;
const CLOSE_NO_GREETING = 4504;

const sentence = (text: string) => (/[.?!]$/.test(text) ? text : `${text}.`);

/** The status line after a failed connection, with the close frame when there was one. */
export function failure(
  closed: { code: number; reason: string } | null,
  name: string,
  host: string,
): string {
  const reason = closed?.reason;
  if (!reason || closed.code === CLOSE_UNREACHABLE) {
    return (
      `${sentence(`The connection to the desktop failed${reason ? `: ${reason}` : ''}`)} Check ` +
      `that a VNC server runs on ${host} and that this server can reach it.`
    );
  }
  if (closed.code === CLOSE_NOT_VNC || closed.code === CLOSE_NO_GREETING) {
    return (
      `${sentence(`The desktop could not be opened: ${reason}`)} Check the VNC host and port ` +
      `of ${name} (Edit): this server connects only to a VNC server.`
    );
  }
  return sentence(`The connection to the desktop failed: ${reason}`);
}
