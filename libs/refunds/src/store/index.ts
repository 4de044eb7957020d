export * from './refund-rows.store.js';
