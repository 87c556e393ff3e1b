// Id forms that one domain's content is referred to by in another's (an anchor naming a checkpoint,
// a cached result naming a blob, a badge naming a task): shared here so the referring domain checks
// the form without importing the owner. The owner re-exports its own.

/** A checkpoint id: c + 8 of 0-9 a-z. */
export const CP_ID = /^c[0-9a-z]{8}$/;

/** A task id: t + 8 of 0-9 a-z. */
export const TASK_ID = /^t[0-9a-z]{8}$/;

/** A blob's address: the sha256 of its bytes, lowercase hex. */
export const BLOB_HASH = /^[0-9a-f]{64}$/;
