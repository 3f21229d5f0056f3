// Bytes exchanged between esptool and real ESP32-S3 boards, as esptool's `--trace` option
// printed them. "Write N bytes" lines are what esptool sent over the wire (SLIP framing
// included); "Received full packet" lines are the board's answers with the SLIP framing removed.
// Sources, all public:
// - [docs] esptool documentation, "Serial Protocol", sections "Initial Synchronisation" (the
//   OHAI packet) and "Tracing Esptool Serial Communications" (the SYNC command on the wire):
//   docs/en/advanced-topics/serial-protocol.rst in github.com/espressif/esptool.
// - [#868] esptool issue 868 (ESPTOOL-658), `esptool.py --trace --chip auto erase_flash` on a
//   WT32-S3-WROVER (ESP32-S3; MAC 48:27:e2:61:b0:d4): the ROM loader's answers to SYNC, to the
//   two eFuse READ_REGs of the MAC, and to MEM_BEGIN for the stub upload.
// - [#857] esptool issue 857 (ESPTOOL-646), esptool v4.5.0 on an ESP32-S3, stub loader running:
//   WRITE_REG to SPI1's USR2 register and SPI_SET_PARAMS while configuring a 16 MB flash.
// The test replays the host side against the simulated board and compares its answers byte for
// byte (recorded-session.spec.ts).

export interface Exchange {
  source: '[docs]' | '[#868]' | '[#857]';
  what: string;
  /** What esptool wrote to the port, hex, SLIP framing included. */
  host: string;
  /** Each packet the board answered, hex, SLIP framing removed. */
  answers: string[];
}

/** The board in the #868 session: its factory MAC, as esptool printed it. */
export const RECORDED_MAC = [0x48, 0x27, 0xe2, 0x61, 0xb0, 0xd4];

// The trace prints 8-byte groups; they are joined here as printed.
const syncOnTheWire = `c000082400000000${'0007071220'}${'55'.repeat(32)}c0`;

/** The ROM loader, right after a reset into download mode. */
export const romExchanges: Exchange[] = [
  {
    source: '[docs]',
    what: 'SYNC: 36 bytes, 07 07 12 20 and 32 x 55; the ROM answers eight times, value 0x20120707 ([#868])',
    host: syncOnTheWire,
    answers: new Array(8).fill('010804000707122000000000'),
  },
  {
    source: '[#868]',
    what: 'READ_REG 0x60007044 (eFuse MAC, low word), 4 status bytes from the ROM',
    host: 'c0000a04000000000044700060c0',
    answers: ['010a0400d4b061e200000000'],
  },
  {
    source: '[#868]',
    what: 'READ_REG 0x60007048 (eFuse MAC, high word)',
    host: 'c0000a04000000000048700060c0',
    answers: ['010a04002748000000000000'],
  },
  {
    source: '[#868]',
    what: 'MEM_BEGIN 0x13a0 bytes, 1 block of 0x1800, at 0x40378000: the ROM repeats the value of the last READ_REG',
    host: 'c000051000000000' + '00a0130000010000' + '0000180000008037' + '40c0',
    answers: ['010504002748000000000000'],
  },
];

/** The packet the stub loader sends once it runs ([docs]), on the wire. */
export const OHAI_ON_THE_WIRE = 'c04f484149c0';

/** The stub loader, once it runs: 2 status bytes, value 0. */
export const stubExchanges: Exchange[] = [
  {
    source: '[#857]',
    what: 'WRITE_REG 0x60002020 (SPI1 USR2) = 0x70000000, mask 0xffffffff, no delay',
    host: 'c000091000000000' + '0020200060000000' + '70ffffffff000000' + '00c0',
    answers: ['01090200000000000000'],
  },
  {
    source: '[#857]',
    what: 'SPI_SET_PARAMS: id 0, 16 MB, 64 KB blocks, 4 KB sectors, 256-byte pages, status mask 0xffff',
    host:
      'c0000b1800000000' + '0000000000000000' + '0100000100001000' + '0000010000ffff00' + '00c0',
    answers: ['010b0200000000000000'],
  },
];
