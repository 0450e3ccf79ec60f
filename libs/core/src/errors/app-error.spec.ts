import { AppError } from './app-error';

class TeapotError extends AppError {
  constructor() {
    super(418, 'teapot', 'short and stout');
  }
}

describe('AppError', () => {
  it('is named after its class and carries its status, code and message', () => {
    const error = new TeapotError();
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'TeapotError', status: 418, code: 'teapot', message: 'short and stout' });
  });
});
