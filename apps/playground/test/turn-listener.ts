// A loopback UDP "attacker" for the browser tests: it plays just enough of a TURN server (RFC 5766)
// to learn what a WebRTC client sends it. An Allocate request without credentials is answered
// "401 Unauthorized" with a realm and a nonce, so the client sends it again with its USERNAME.
import { createSocket } from "node:dgram";

/** What the listener heard. */
export interface TurnListener {
  port: number;
  /** Every datagram received (STUN binding requests, TURN allocations, …). */
  packets: number;
  /** The USERNAME attribute of every request that carried one, as text. */
  usernames: string[];
  close(): Promise<void>;
}

const magicCookie = 0x2112a442;
const allocateRequest = 0x0003;
const allocateErrorResponse = 0x0113;
const attributeUsername = 0x0006;
const attributeErrorCode = 0x0009;
const attributeRealm = 0x0014;
const attributeNonce = 0x0015;

/** Starts the listener on 127.0.0.1 and a free port. */
export async function startTurnListener(): Promise<TurnListener> {
  const socket = createSocket("udp4");
  const listener: TurnListener = {
    port: 0,
    packets: 0,
    usernames: [],
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
  socket.on("message", (message, remote) => {
    listener.packets++;
    if (message.length < 20 || message.readUInt32BE(4) !== magicCookie) return;
    const type = message.readUInt16BE(0);
    const attributes = readAttributes(message);
    const username = attributes.get(attributeUsername);
    if (username) listener.usernames.push(username.toString("utf8"));
    if (type === allocateRequest && !username) {
      socket.send(unauthorized(message.subarray(8, 20)), remote.port, remote.address);
    }
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  listener.port = socket.address().port;
  return listener;
}

function readAttributes(message: Buffer): Map<number, Buffer> {
  const attributes = new Map<number, Buffer>();
  const end = Math.min(message.length, 20 + message.readUInt16BE(2));
  let offset = 20;
  while (offset + 4 <= end) {
    const type = message.readUInt16BE(offset);
    const length = message.readUInt16BE(offset + 2);
    attributes.set(type, message.subarray(offset + 4, offset + 4 + length));
    offset += 4 + Math.ceil(length / 4) * 4;
  }
  return attributes;
}

function unauthorized(transaction: Buffer): Buffer {
  const reason = Buffer.from("Unauthorized");
  const errorCode = Buffer.concat([Buffer.from([0, 0, 4, 1]), reason]);
  const body = Buffer.concat([
    attribute(attributeErrorCode, errorCode),
    attribute(attributeRealm, Buffer.from("attacker.example")),
    attribute(attributeNonce, Buffer.from("0123456789abcdef")),
  ]);
  const header = Buffer.alloc(20);
  header.writeUInt16BE(allocateErrorResponse, 0);
  header.writeUInt16BE(body.length, 2);
  header.writeUInt32BE(magicCookie, 4);
  transaction.copy(header, 8);
  return Buffer.concat([header, body]);
}

function attribute(type: number, value: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header.writeUInt16BE(type, 0);
  header.writeUInt16BE(value.length, 2);
  const padding = Buffer.alloc((4 - (value.length % 4)) % 4);
  return Buffer.concat([header, value, padding]);
}
