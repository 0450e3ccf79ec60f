import { isUtf8 } from 'node:buffer';
import { InvalidJsonError, UnsupportedContentTypeError } from '@app/core';

/**
 * The JSON body parser's `verify` hook: a body is UTF-8 (RFC 8259 section 8.1), byte for byte. Left to
 * itself the parser decodes any `charset=utf-…` it knows and turns each invalid byte sequence into U+FFFD,
 * so text the client never sent would be stored; the text gate, which refuses `\ud800` written as an escape,
 * never sees the bytes.
 */
export function assertUtf8Body(_request: unknown, _response: unknown, body: Buffer, charset: string | null): void {
  if (charset?.toLowerCase() !== 'utf-8') throw new UnsupportedContentTypeError();
  if (!isUtf8(body)) throw new InvalidJsonError('The request body is not valid UTF-8.');
}
