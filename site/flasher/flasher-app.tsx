'use client';

// Placeholder until the flasher engineer (issue 6) replaces this file with the real flasher:
// the page shell in app/esp32-flasher/ renders this default export, loaded lazily.
export default function FlasherApp() {
  return (
    <section aria-labelledby="flasher-status" className="flasher-placeholder">
      <h2 id="flasher-status">Firmware releases</h2>
      <p>
        The in-browser flasher is being built. Until then, flash with esptool as described in the
        ESP32-S3 installation guide.
      </p>
    </section>
  );
}
