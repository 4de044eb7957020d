export * from './charge-rows.store.js';
