import { HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common';
import { DECORATORS } from '@nestjs/swagger';
import { Operation } from './operation.decorator';

class Handlers {
  @Operation({
    method: 'PUT',
    path: 'things/:thingId',
    id: 'putThing',
    summary: 'Create or replace a thing',
    params: [{ name: 'thingId' }, { name: 'other' }],
    headers: [{ name: 'If-Match' }],
    success: [
      { status: 200, description: 'Replaced.' },
      { status: 201, description: 'Created.' },
    ],
    errors: [400],
  })
  put(): void {}

  @Operation({ method: 'DELETE', id: 'deleteThing', summary: 'Remove', success: { status: 204 }, errors: [] })
  remove(): void {}
}

const metadata = (key: string, handler: () => void): unknown => Reflect.getMetadata(key, handler);

describe('Operation', () => {
  const { put, remove } = Handlers.prototype;

  it('routes the handler and answers the first success status by default', () => {
    expect(metadata(METHOD_METADATA, put)).toBe(RequestMethod.PUT);
    expect(metadata(PATH_METADATA, put)).toBe('things/:thingId');
    expect(metadata(HTTP_CODE_METADATA, put)).toBe(200);
    expect(metadata(HTTP_CODE_METADATA, remove)).toBe(204);
  });

  it('documents the operation, its parameters and headers, and every response with the errors', () => {
    expect(metadata(DECORATORS.API_OPERATION, put)).toMatchObject({ operationId: 'putThing' });
    const parameters = metadata(DECORATORS.API_PARAMETERS, put) as Array<{ name: string }>;
    expect(parameters.map((parameter) => parameter.name).sort()).toEqual(['If-Match', 'other', 'thingId']);
    expect(Object.keys(metadata(DECORATORS.API_RESPONSE, put) as object)).toEqual(
      expect.arrayContaining(['200', '201', '400', '500']),
    );
  });
});
