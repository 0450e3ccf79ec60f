import { Clock } from '@app/core';
import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { GetPetSunsetError } from './pet.errors';

/** When getPet was marked deprecated (the 1.0.0 release), as an RFC 9745 Date. */
const GET_PET_DEPRECATED_AT = new Date('2025-12-05T00:00:00Z');
/** Removed on 5 December 2030, five years after the deprecation (docs/api-guide.md). */
const GET_PET_SUNSET_AT = new Date('2030-12-05T00:00:00Z');

/**
 * Every answer of `GET /pets/{petId}`, errors included, announces the deprecation (RFC 9745), the
 * sunset (RFC 8594) and the successor; from the sunset instant on the operation answers 410.
 * A middleware, because it must apply before the guards can reject the request.
 */
@Injectable()
export class GetPetDeprecationMiddleware implements NestMiddleware {
  constructor(private readonly clock: Clock) {}

  use(_request: Request, response: Response, next: NextFunction): void {
    response.setHeader('Deprecation', `@${GET_PET_DEPRECATED_AT.getTime() / 1000}`);
    response.setHeader('Sunset', GET_PET_SUNSET_AT.toUTCString());
    response.setHeader('Link', '</v1/pets>; rel="successor-version"');
    if (this.clock.now() >= GET_PET_SUNSET_AT) throw new GetPetSunsetError();
    next();
  }
}
