// The topic names and rights are the platform's (the ps: contract every line writer keeps).
export * from '../platform/events/topic-names.js';
