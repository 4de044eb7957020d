/**
 * `@app/database/replica`: kept out of `@app/database` on purpose, so that importing it is a visible act that the
 * dependency check and test/replica-reader-owner.test.ts can hold to an allow-list.
 */
export { ReplicaReader, type ReadQuery, type ReadsServed } from './replica-reader.js';
