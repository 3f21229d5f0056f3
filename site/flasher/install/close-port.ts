// Closing a serial port whatever state it is in. Web Serial has no "is open" query, and a port
// whose device was unplugged has no streams yet is still open until close() is called, so: call
// close() and ignore "already closed".

export async function closePort(port: SerialPort): Promise<void> {
  try {
    await port.close();
  } catch {
    // already closed, or never opened
  }
}
