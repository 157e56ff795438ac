/** `parseJoinError`: every join code, from a Colyseus `ServerError`, an HTTP body or a string. */
import { CLIENT_FAILURE_CODES, isJoinErrorCode, JOIN_ERROR_CODES, parseJoinError } from '@djambi/shared';
import { JOIN_ERROR_STATUS } from '../../server/src/errors.js';

/** What colyseus.js rejects a join with: `ServerError { code, message }`. */
class ServerErrorLike extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

test.each(JOIN_ERROR_CODES)('%s: from a ServerError, an HTTP body, a string', (code) => {
  const text = 'the words after the code';
  expect(parseJoinError(new ServerErrorLike(JOIN_ERROR_STATUS[code], `${code}: ${text}`))).toEqual({ code, message: text });
  expect(parseJoinError({ error: { code, message: `${code}: ${text}` } })).toEqual({ code, message: text });
  expect(parseJoinError({ error: { code, message: text } })).toEqual({ code, message: text });
  expect(parseJoinError(`${code}: ${text}`)).toEqual({ code, message: text });
  expect(isJoinErrorCode(code)).toBe(true);
});

test('every join code has a status, and the server declares no other', () => {
  expect(Object.keys(JOIN_ERROR_STATUS).sort()).toEqual([...JOIN_ERROR_CODES].sort());
});

test.each(CLIENT_FAILURE_CODES)('%s from an HTTP body', (code) => {
  expect(parseJoinError({ error: { code, message: 'm' } })).toEqual({ code, message: 'm' });
  expect(isJoinErrorCode(code)).toBe(false);
});

test('no room, no answer, garbage', () => {
  expect(parseJoinError(new ServerErrorLike(4212, 'room "ABCDEF" not found'))).toEqual({ code: 'not_found', message: 'room "ABCDEF" not found' });
  expect(parseJoinError(new Error('invalid room id'))).toMatchObject({ code: 'not_found' });
  expect(parseJoinError(new Error('socket hang up'))).toEqual({ code: 'network', message: 'socket hang up' });
  expect(parseJoinError(new Error('bogus_code: text'))).toEqual({ code: 'network', message: 'bogus_code: text' });
  expect(parseJoinError({ error: { code: 'bogus', message: 'x' } })).toMatchObject({ code: 'network' });
  for (const junk of [undefined, null, 42, {}, [], { error: null }, { error: 'text' }, Object.create(null), Symbol('s')]) {
    expect(parseJoinError(junk)).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  }
});
