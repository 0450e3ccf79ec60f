import { AppError } from './app-error';

class TeapotError extends AppError {
  constructor() {
    super(418, 'teapot', 'short and stout');
  }
}

describe('AppError', () => {
  it('is named after its class and captures no stack frames', () => {
    const error = new TeapotError();
    expect(error).toMatchObject({ name: 'TeapotError', status: 418, code: 'teapot', message: 'short and stout' });
    expect(error.stack).not.toMatch(/\n\s+at /);
  });

  it('leaves the stack trace limit of every other error as it was', () => {
    const before = Error.stackTraceLimit;
    new TeapotError();
    expect(Error.stackTraceLimit).toBe(before);
    expect(new Error('a fault').stack).toMatch(/\n\s+at /);
  });
});
