// Topic lines: the one way any domain publishes a line on a topic (agents through swarm ops,
// inbound webhooks, operator announcements on g:sys, fn: sink outputs) and reads them back (feeds,
// exports). Lines live on the event bus under `ps:<topic>`, so their seq is the bus id: gapless
// and monotonic per topic. The line's shape, its checks, publishing and reading are a topic
// contract of the platform (src/core/platform/events/topics.ts), so other domains write and read
// lines without importing swarm; the swarm module follows `ps:` and queues deliveries (module.ts,
// deliver.ts). Retention: swarm.keep_h and swarm.keep_rows per topic (src/core/swarm/sweep.ts),
// within the bus's.
export { busTopic, flatLine, headOf, LINE_PREFIX, lineDraft, lineOf, publishLine, readLines, type Line, type LinePayload } from '../platform/events/topics.js';
