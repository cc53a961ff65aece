import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';

/** One file of a ZIP archive; its bytes are read only when the archive reaches it. */
export interface ZipEntry {
  /** The path inside the archive, with `/` between folders. */
  name: string;
  read(): Promise<Buffer>;
}

/** Bit 11 of the general-purpose flags: the entry's name is UTF-8. */
const UTF8_NAMES = 0x0800;
/** ZIP 2.0: what every unzip tool reads; stored entries need nothing newer. */
const VERSION = 20;
const MAX_32 = 0xffff_ffff;

/** MS-DOS time and date of `at` (local fields in UTC, two-second steps), as ZIP headers store them. */
function dosDateTime(at: Date): { time: number; date: number } {
  const time = (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2);
  const date = ((Math.max(at.getUTCFullYear(), 1980) - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate();
  return { time, date };
}

/**
 * A ZIP archive of `entries`, streamed one file at a time with the STORE method (the photos are
 * JPEGs, which do not compress): each file is read whole, so its CRC-32 and size go in its local
 * header and no data descriptor is needed; the central directory follows the last file. No ZIP64:
 * a listing's files stay far below 4 GB, and an archive that would not is refused as it streams.
 */
export function zipStream(entries: readonly ZipEntry[], modified = new Date()): Readable {
  const { time, date } = dosDateTime(modified);
  async function* chunks(): AsyncGenerator<Buffer> {
    const central: Buffer[] = [];
    let offset = 0;
    for (const entry of entries) {
      const name = Buffer.from(entry.name, 'utf8');
      const data = await entry.read();
      const crc = crc32(data);
      if (offset + 30 + name.length + data.length > MAX_32) throw new Error('The archive would pass 4 GB, which needs ZIP64');
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(VERSION, 4);
      local.writeUInt16LE(UTF8_NAMES, 6);
      local.writeUInt16LE(0, 8); // stored
      local.writeUInt16LE(time, 10);
      local.writeUInt16LE(date, 12);
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(data.length, 18);
      local.writeUInt32LE(data.length, 22);
      local.writeUInt16LE(name.length, 26);
      local.writeUInt16LE(0, 28);
      yield Buffer.concat([local, name]);
      yield data;

      const header = Buffer.alloc(46);
      header.writeUInt32LE(0x02014b50, 0);
      header.writeUInt16LE(VERSION, 4);
      header.writeUInt16LE(VERSION, 6);
      header.writeUInt16LE(UTF8_NAMES, 8);
      header.writeUInt16LE(0, 10);
      header.writeUInt16LE(time, 12);
      header.writeUInt16LE(date, 14);
      header.writeUInt32LE(crc, 16);
      header.writeUInt32LE(data.length, 20);
      header.writeUInt32LE(data.length, 24);
      header.writeUInt16LE(name.length, 28);
      // Extra field, comment, disk number, internal and external attributes: none.
      header.writeUInt32LE(offset, 42);
      central.push(header, name);
      offset += local.length + name.length + data.length;
    }
    const directory = Buffer.concat(central);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(entries.length, 8);
    end.writeUInt16LE(entries.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(offset, 16);
    yield Buffer.concat([directory, end]);
  }
  return Readable.from(chunks(), { objectMode: false });
}
