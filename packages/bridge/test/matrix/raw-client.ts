/**
 * The runtime matrix's raw client: a WebSocket written on a TCP socket, so the test chooses the
 * exact bytes of the handshake (the subprotocol list without spaces, or oddly spaced) that no
 * WebSocket library would send. Text and close frames, fragments and pings: what the bridge sends.
 */
import { randomBytes } from "node:crypto";
import { type Socket, connect as tcpConnect } from "node:net";

/** A record as parsed. */
export type Rec = Record<string, unknown>;

/** An open raw socket. */
export interface RawSocket {
  /** The handshake's status line and headers. */
  readonly head: string;
  readonly records: Rec[];
  /** Settles with the close code (1006 when the connection ended without a close frame). */
  readonly closed: Promise<{ code: number; reason: string }>;
  send(record: Rec): void;
  /** The first record from `from` on that matches; rejects when the socket closes first. */
  waitFor(predicate: (record: Rec) => boolean, from?: number): Promise<Rec>;
}

/** Opens `url` (`ws://host:port/path`) offering exactly `protocolHeader`; resolves after a 101. */
export function rawConnect(url: string, protocolHeader: string): Promise<RawSocket> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = tcpConnect(Number(target.port), target.hostname, () => {
      socket.write(
        [
          `GET ${target.pathname}${target.search} HTTP/1.1`,
          `Host: ${target.host}`,
          "Upgrade: websocket",
          "Connection: Upgrade",
          `Sec-WebSocket-Key: ${randomBytes(16).toString("base64")}`,
          "Sec-WebSocket-Version: 13",
          `Sec-WebSocket-Protocol: ${protocolHeader}`,
          "",
          "",
        ].join("\r\n"),
      );
    });
    let buffer: Buffer = Buffer.alloc(0);
    let opened: ReturnType<typeof frames> | undefined;
    socket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (opened === undefined) {
        const end = buffer.indexOf("\r\n\r\n");
        if (end === -1) return;
        const head = buffer.subarray(0, end).toString("latin1");
        buffer = buffer.subarray(end + 4);
        if (!head.startsWith("HTTP/1.1 101")) {
          socket.destroy();
          reject(new Error(`handshake refused: ${head}`));
          return;
        }
        opened = frames(socket, head);
        resolve(opened.raw);
      }
      buffer = opened.read(buffer);
    });
    socket.on("error", reject);
  });
}

/** The frame reader and the socket's API, once the handshake is done. */
function frames(socket: Socket, head: string) {
  const records: Rec[] = [];
  const wake = new Set<() => void>();
  let closeInfo: { code: number; reason: string } | undefined;
  let fragments: Buffer[] = [];
  let resolveClosed!: (info: { code: number; reason: string }) => void;
  const closed = new Promise<{ code: number; reason: string }>((r) => (resolveClosed = r));
  const finish = (info: { code: number; reason: string }): void => {
    closeInfo ??= info;
    resolveClosed(closeInfo);
    for (const w of wake) w();
  };
  socket.on("close", () => finish({ code: 1006, reason: "" }));
  const write = (opcode: number, payload: Buffer): void => {
    const mask = randomBytes(4);
    const length =
      payload.length < 126
        ? Buffer.from([payload.length | 0x80])
        : payload.length < 65536
          ? Buffer.from([126 | 0x80, payload.length >> 8, payload.length & 0xff])
          : Buffer.concat([Buffer.from([127 | 0x80]), bigLength(payload.length)]);
    const masked = Buffer.from(payload.map((byte, i) => byte ^ (mask[i % 4] as number)));
    socket.write(Buffer.concat([Buffer.from([0x80 | opcode]), length, mask, masked]));
  };
  const raw: RawSocket = {
    head,
    records,
    closed,
    send: (record) => write(1, Buffer.from(JSON.stringify(record))),
    waitFor(predicate, from = 0) {
      return new Promise((resolve, reject) => {
        let index = from;
        const check = (): void => {
          for (; index < records.length; index++) {
            if (predicate(records[index] as Rec)) {
              wake.delete(check);
              resolve(records[index] as Rec);
              return;
            }
          }
          if (closeInfo !== undefined) {
            wake.delete(check);
            reject(
              new Error(`closed ${closeInfo.code} ${closeInfo.reason} before the record came`),
            );
          }
        };
        wake.add(check);
        check();
      });
    },
  };
  /** Consumes the whole frames in `buffer`; returns what is left. */
  const read = (buffer: Buffer): Buffer => {
    for (;;) {
      if (buffer.length < 2) return buffer;
      const opcode = (buffer[0] as number) & 0x0f;
      const fin = ((buffer[0] as number) & 0x80) !== 0;
      let length = (buffer[1] as number) & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (buffer.length < 4) return buffer;
        length = buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (buffer.length < 10) return buffer;
        length = Number(buffer.readBigUInt64BE(2));
        offset = 10;
      }
      if (buffer.length < offset + length) return buffer;
      const payload = buffer.subarray(offset, offset + length);
      buffer = buffer.subarray(offset + length);
      if (opcode === 8) {
        const code = payload.length >= 2 ? payload.readUInt16BE(0) : 1005;
        finish({ code, reason: payload.subarray(2).toString("utf8") });
        socket.end();
      } else if (opcode === 9) write(10, payload);
      else if (opcode === 1 || opcode === 0) {
        fragments.push(payload);
        if (fin) {
          records.push(JSON.parse(Buffer.concat(fragments).toString("utf8")) as Rec);
          fragments = [];
          for (const w of wake) w();
        }
      }
    }
  };
  return { raw, read };
}

function bigLength(n: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(BigInt(n));
  return bytes;
}
