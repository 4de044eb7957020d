/** Queue names in one place: the api enqueues, the worker processes. */
export const SUBMIT_QUEUE = 'attempt-submit';
export const RESOLUTION_QUEUE = 'attempt-resolution';
export const MAINTENANCE_QUEUE = 'maintenance';
