import { pipeline } from 'node:stream/promises';
import { ServiceUnavailableError } from '@app/core';
import { conditionTags, formatEntityTag, parseEntityTagCondition, Public, SkipRateLimit } from '@app/http';
import { Controller, Get, Headers, Inject, Logger, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { parseRenditionKey, RENDITION_CACHE_CONTROL } from './photo-files';
import { PhotoFileNotFoundError } from './photos.errors';
import { PHOTO_STORAGE, PhotoStorage, StoredFileStream } from './storage/photo-storage';

/** Where the api serves renditions, outside `/v1` (the api app's `unprefixedRoutes`). */
export const MEDIA_ROUTE = 'media';

const logger = new Logger('MediaController');

/**
 * Serves renditions from the configured storage, without a key and outside the rate limits (a page shows
 * many at once): the URLs of the default PHOTO_PUBLIC_BASE_URL. A rendition's key names its bytes, so it is
 * cached for ever and its digest is its ETag. Only renditions are served: never an upload.
 */
@ApiExcludeController()
@Public()
@SkipRateLimit()
@Controller(MEDIA_ROUTE)
export class MediaController {
  constructor(@Inject(PHOTO_STORAGE) private readonly storage: PhotoStorage) {}

  @Get('*key')
  async serve(
    @Req() request: Request,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() response: Response,
  ): Promise<void> {
    const key = request.path.slice(`/${MEDIA_ROUTE}/`.length);
    const rendition = parseRenditionKey(key);
    if (!rendition) throw new PhotoFileNotFoundError();
    const headers = {
      'Cache-Control': RENDITION_CACHE_CONTROL,
      ETag: formatEntityTag(rendition.digest),
      'X-Content-Type-Options': 'nosniff',
      // helmet's default (same-origin) would keep every other site's page (the widget's) from showing it.
      'Cross-Origin-Resource-Policy': 'cross-origin',
    };
    const condition = parseEntityTagCondition(ifNoneMatch, 'If-None-Match');
    const tags = condition && conditionTags(condition, 'weak');
    if (condition && (tags === undefined || tags.includes(rendition.digest))) {
      response.status(304).set(headers).end();
      return;
    }
    let file: StoredFileStream | undefined;
    try {
      file = await this.storage.open(key);
    } catch {
      throw new ServiceUnavailableError('The photo storage cannot be reached; retry shortly.');
    }
    if (!file) throw new PhotoFileNotFoundError();
    response
      .status(200)
      .set({ ...headers, 'Content-Type': rendition.contentType, 'Content-Length': String(file.length) });
    // A client that closes before the file is sent (a page left, a download cancelled) is no server error;
    // a store that fails mid-file is. Whichever stream ended first tells them apart.
    let clientLeft = response.destroyed;
    response.once('close', () => (clientLeft ||= !response.writableFinished && !file.body.errored));
    try {
      if (!clientLeft) await pipeline(file.body, response);
    } catch (error) {
      if (!clientLeft) throw error;
    }
    if (clientLeft) {
      file.body.destroy();
      logger.debug({ requestId: (request as { id?: unknown }).id, key }, 'the client left before the file was sent');
    }
  }
}
