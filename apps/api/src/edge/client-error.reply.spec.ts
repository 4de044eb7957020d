import { describe, expect, it } from 'vitest';
import { clientErrorReply } from './client-error.reply.js';

describe('clientErrorReply', () => {
  it.each([
    ['HPE_HEADER_OVERFLOW', 431, 'headers_too_large'],
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'request_timeout'],
    ['HPE_INVALID_METHOD', 400, 'bad_request'],
    [undefined, 400, 'bad_request'],
  ])('answers %s with %i and code %s in the one error shape', (errorCode, status, code) => {
    const reply = clientErrorReply({ code: errorCode });
    expect(reply.status).toBe(status);
    expect(JSON.parse(reply.body)).toMatchObject({ statusCode: status, code, error: expect.any(String), message: expect.any(String) });
  });
});
