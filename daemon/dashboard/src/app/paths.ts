// The app's own pages (besides `/`), as links elsewhere in the app name them.

/** The compact menu page the Windows app fetches. */
export const DESKTOP_MENU_PATH = '/site/DesktopMenu';
/** The VNC viewer of a source: /vnc/{source name}. */
export const VNC_PATH = '/vnc/';
/** A sink's MP3 stream, served by the daemon: /stream/{sink ip}/. */
export const STREAM_PATH = '/stream/';
/** WHEP: POST an SDP offer here + a sink's config_id to listen to it over WebRTC. */
export const WHEP_SINK_PATH = '/api/whep/sink/';
