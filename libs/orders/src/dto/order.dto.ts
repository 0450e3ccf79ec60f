import { CharacterCount } from '@app/core';
import { PageQueryDto, toQueryInt } from '@app/http';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { ORDER_ROLES, ORDER_STATUSES, OrderRole, OrderStatus } from '../order-transitions';

const MAX_ID = Number.MAX_SAFE_INTEGER;
const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

@ApiSchema({ name: 'NewOrder' })
export class NewOrderDto {
  @ApiProperty({
    type: 'integer',
    format: 'int64',
    minimum: 1,
    maximum: MAX_ID,
    description: 'The pet to adopt: an `available` pet listed by another account.',
    example: 1,
  })
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  petId: number;

  @ApiPropertyOptional({
    description: 'A message to the pet’s lister, trimmed: 1 to 1000 characters.',
    minLength: 1,
    maxLength: 1000,
    example: 'We have a garden and another dog.',
  })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @CharacterCount(1, 1000)
  note?: string;
}

/** The optional body of `cancelOrder` and `returnOrder`. */
@ApiSchema({ name: 'OrderReason' })
export class OrderReasonDto {
  @ApiPropertyOptional({
    description: 'Why, trimmed: 1 to 500 characters. A cancellation without one records `requested`.',
    minLength: 1,
    maxLength: 500,
    example: 'We found another home for her.',
  })
  @IsOptional()
  @Transform(trim)
  @IsString()
  @CharacterCount(1, 500)
  reason?: string;
}

@ApiSchema({ name: 'Order' })
export class OrderDto {
  @ApiProperty({ type: 'integer', format: 'int64', example: 1 })
  id: number;

  @ApiProperty({ type: 'integer', format: 'int64', description: 'The pet the order is for.', example: 1 })
  petId: number;

  @ApiProperty({
    enum: ORDER_STATUSES,
    enumName: 'OrderStatus',
    description:
      '`placed` (the pet is held, `pending`, until `expiresAt`), `approved` (the pet is `sold`), `delivered`, ' +
      '`cancelled` (the pet is `available` again) or `returned` (likewise).',
    example: 'placed',
  })
  status: OrderStatus;

  @ApiProperty({
    enum: ORDER_ROLES,
    enumName: 'OrderRole',
    description: 'The caller’s part in the order: `adopter` (placed it) or `lister` (listed the pet).',
    example: 'adopter',
  })
  role: OrderRole;

  @ApiPropertyOptional({ description: 'The adopter’s message to the lister.', example: 'We have a garden.' })
  note?: string;

  @ApiPropertyOptional({
    description:
      'Set when cancelled: `expired` when the hold ran out, `application_withdrawn` when the application that ' +
      'placed it was withdrawn, else the canceller’s reason or `requested`.',
    example: 'expired',
  })
  cancellationReason?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'While `placed`: when the hold runs out and the order is cancelled, ISO 8601 in UTC.',
    example: '2026-06-03T12:00:00.000Z',
  })
  expiresAt?: string;

  @ApiProperty({ format: 'date-time', example: '2026-06-01T12:00:00.000Z' })
  createdAt: string;

  @ApiProperty({
    format: 'date-time',
    description: 'When the order last changed.',
    example: '2026-06-01T12:00:00.000Z',
  })
  updatedAt: string;
}

export class ListOrdersQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ORDER_STATUSES, enumName: 'OrderStatus', description: 'Keeps orders in this state.' })
  @IsOptional()
  @IsIn(ORDER_STATUSES)
  status?: OrderStatus;

  @ApiPropertyOptional({
    enum: ORDER_ROLES,
    enumName: 'OrderRole',
    description: 'Keeps the orders the caller placed (`adopter`) or received for its pets (`lister`).',
  })
  @IsOptional()
  @IsIn(ORDER_ROLES)
  role?: OrderRole;

  @ApiPropertyOptional({ type: 'integer', format: 'int64', minimum: 1, description: 'Keeps orders for this pet.' })
  @IsOptional()
  @Transform(toQueryInt)
  @IsInt()
  @Min(1)
  @Max(MAX_ID)
  petId?: number;
}

@ApiSchema({ name: 'Inventory' })
export class InventoryDto {
  @ApiProperty({ type: 'integer', format: 'int64', description: 'Pets whose status is `available`.', example: 12 })
  available: number;

  @ApiProperty({ type: 'integer', format: 'int64', description: 'Pets whose status is `pending`.', example: 3 })
  pending: number;

  @ApiProperty({ type: 'integer', format: 'int64', description: 'Pets whose status is `sold`.', example: 40 })
  sold: number;
}
