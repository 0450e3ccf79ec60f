import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { conditionTags, formatEntityTag, parseEntityTagCondition, Public } from '@app/http';
import { Controller, Get, Headers, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';

/** Where shelters' pages load the widget from, outside `/v1`: a page names it in a script tag. */
export const WIDGET_ROUTE = 'widget.js';

/**
 * Pages cache the script for a day, then revalidate it (a 304 while it has not changed), so a new version
 * reaches every site within a day without a version in the URL that sites would have to update.
 */
const CACHE_CONTROL = 'public, max-age=86400, must-revalidate';

/** The script, written by hand in plain JavaScript beside this file, read once. */
const SCRIPT = readFileSync(join(__dirname, 'widget.js'));
const ETAG = createHash('sha256').update(SCRIPT).digest('base64url').slice(0, 27);

/** `GET /widget.js`: the embeddable listing of an organisation's animals, for any page, without a key. */
@Public()
@ApiExcludeController()
@Controller()
export class WidgetController {
  @Get(WIDGET_ROUTE)
  serve(@Headers('if-none-match') ifNoneMatch: string | undefined, @Res() response: Response): void {
    response.setHeader('Cache-Control', CACHE_CONTROL);
    response.setHeader('ETag', formatEntityTag(ETAG));
    // helmet's default (same-origin) would keep every other site's page from running the script.
    response.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    const condition = parseEntityTagCondition(ifNoneMatch, 'If-None-Match');
    const tags = condition && conditionTags(condition, 'weak');
    if (condition && (tags === undefined || tags.includes(ETAG))) {
      response.status(304).end();
      return;
    }
    response.type('text/javascript; charset=utf-8').send(SCRIPT);
  }
}
