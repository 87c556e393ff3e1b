// Resumability for one session's SSE streams: a bounded, in-memory event log.
import type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export class SessionEventStore implements EventStore {
  private seq = 0;
  private events = new Map<EventId, { streamId: StreamId; message: JSONRPCMessage; n: number }>();
  constructor(private max: number) {}

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const n = ++this.seq;
    const id = `${n}.${streamId}`;
    this.events.set(id, { streamId, message, n });
    if (this.events.size > this.max) this.events.delete(this.events.keys().next().value!);
    return id;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.events.get(eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId: EventId, { send }: { send: (id: EventId, m: JSONRPCMessage) => Promise<void> }): Promise<StreamId> {
    const last = this.events.get(lastEventId);
    if (!last) return '';
    // Map iteration is insertion order, which is event order.
    for (const [id, e] of this.events) if (e.streamId === last.streamId && e.n > last.n) await send(id, e.message);
    return last.streamId;
  }
}
