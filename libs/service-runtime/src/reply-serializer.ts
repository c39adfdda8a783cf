import type { ConsumerSerializer, OutgoingResponse } from '@nestjs/microservices';
import { RESPONSE_HEAD } from '@service/nats';

/** What a reply packet's text starts with when its response is the placeholder 0. */
const PLACEHOLDER_HEAD = `${RESPONSE_HEAD}0`;
const HEAD_BYTES = Buffer.from(RESPONSE_HEAD);

/**
 * The services' reply serializer (Nest's public `serializer` option): the same text as Nest's
 * NATS serializer, `JSON.stringify` of the reply packet, except that a response object answered to
 * several requests in one event-loop turn is turned into JSON once.
 *
 * Requests that read the same rows at the same instant share one answer object (`TurnReads` and
 * `SameAnswers` in @service/sql): under 50 connections asking for the same first page, a turn
 * answers several of them with one page of 21 wallets (25 KB of JSON), and stringifying it again
 * for each would be a large share of wallet-service's CPU on GET /v2/wallets. An object answered twice in one turn is taken to be unchanged between the
 * two answers: answers are not mutated once returned (see `SameAnswers`). The texts are forgotten
 * when the turn ends. They are kept, and the packet written, as UTF-8 bytes, which is what NATS
 * sends, so the text is not encoded again for each reply.
 *
 * The text written is Nest's reply wire format, a dependency's internals: @nestjs/microservices
 * is pinned exactly, `reply-serializer.spec.ts` compares every kind of packet with Nest's own
 * serializer and `nats-server.int.spec.ts` the bytes on the wire with Nest's own server. On the first
 * page of GET /v2/wallets it buys more than the 10 % such code must buy on a user's route (figures:
 * tools/bench/README.md, "Internals of dependencies").
 */
export class ReplySerializer implements ConsumerSerializer {
  /** This turn's response texts as UTF-8, by response object. */
  private encoded = new Map<object, Buffer | undefined>();

  /**
   * The reply packet's text, as UTF-8 bytes when its response is an object (NATS sends bytes: the
   * response is encoded once for every reply of the turn that carries it, not once a reply).
   */
  serialize(packet: OutgoingResponse): { data: string | Buffer; headers: undefined } {
    return { data: this.packetOf(packet), headers: undefined };
  }

  private packetOf(packet: OutgoingResponse): string | Buffer {
    const response: unknown = packet.response;
    if (response === null || typeof response !== 'object') return JSON.stringify(packet);
    // The packet with the placeholder 0 where the response goes: `{"response":0,"isDisposed":true,"id":"..."}`.
    const rest = JSON.stringify({ ...packet, response: 0 });
    const bytes = this.bytesOf(response);
    // A response whose JSON is nothing (a `toJSON` giving undefined), or not the packet's first field: as Nest writes it.
    if (bytes === undefined || !rest.startsWith(PLACEHOLDER_HEAD)) return JSON.stringify(packet);
    const tail = rest.slice(PLACEHOLDER_HEAD.length);
    const tailLength = Buffer.byteLength(tail);
    const packetBytes = Buffer.allocUnsafe(HEAD_BYTES.length + bytes.length + tailLength);
    HEAD_BYTES.copy(packetBytes, 0);
    bytes.copy(packetBytes, HEAD_BYTES.length);
    packetBytes.write(tail, HEAD_BYTES.length + bytes.length, tailLength);
    return packetBytes;
  }

  private bytesOf(response: object): Buffer | undefined {
    if (this.encoded.has(response)) return this.encoded.get(response);
    const text = JSON.stringify(response) as string | undefined;
    const bytes = text === undefined ? undefined : Buffer.from(text);
    if (this.encoded.size === 0) setImmediate(this.forget);
    this.encoded.set(response, bytes);
    return bytes;
  }

  private readonly forget = (): void => {
    this.encoded = new Map();
  };
}
