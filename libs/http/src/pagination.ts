import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { Request, Response } from 'express';
import { ValidationFailedError } from '@app/core';

const CURSOR_VERSION = 'v1';

/** Query strings arrive as text: accept only plain decimal integers (no `0x10`, `1e3`, ` 5`). */
export const toQueryInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?[0-9]{1,16}$/.test(value) ? Number(value) : value;

/** `limit` and `cursor`, shared by every paginated list. */
export class PageQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 100,
    default: 20,
    description: 'Maximum number of items returned.',
  })
  @IsOptional()
  @Transform(toQueryInt)
  @Min(1)
  @Max(100)
  @IsInt()
  limit: number = 20;

  @ApiPropertyOptional({
    description: 'Opaque position from the `Link: <…>; rel="next"` header of the previous page.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  cursor?: string;
}

/** Keyset cursors: opaque to clients, an id position to the service. */
export function encodeCursor(id: number): string {
  return Buffer.from(`${CURSOR_VERSION}:${id}`).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  const match = /^v1:([0-9]{1,16})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const id = match ? Number(match[1]) : NaN;
  if (!Number.isSafeInteger(id)) {
    throw new ValidationFailedError('cursor is invalid: pass the one from the Link header', [
      { field: 'cursor', message: 'cursor is invalid' },
    ]);
  }
  return id;
}

/**
 * RFC 8288 `Link` to the next page: the same path and (validated) filters, with the next cursor. The
 * filters are in the order of their names and the cursor last, whatever order the request gave them in,
 * so every page of a list links with the same query but its cursor.
 */
export function nextPageLink(
  request: Request,
  filters: Record<string, string | number | undefined>,
  cursor: string,
): string {
  const params = new URLSearchParams();
  const names = Object.keys(filters).filter((name) => name !== 'cursor' && filters[name] !== undefined);
  for (const name of names.sort()) params.set(name, String(filters[name]));
  params.set('cursor', cursor);
  return `<${request.path}?${params.toString()}>; rel="next"`;
}

/** Sets `Link: <…>; rel="next"` when another page follows the item at `lastPosition`. */
export function linkNextPage(
  request: Request,
  response: Response,
  filters: Record<string, string | number | undefined>,
  lastPosition: number | undefined,
): void {
  if (lastPosition !== undefined)
    response.setHeader('Link', nextPageLink(request, filters, encodeCursor(lastPosition)));
}
