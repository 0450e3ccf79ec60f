import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { Account } from '../accounts.repository';
import { limitsFor, Plan, PLANS } from '../plans';

@ApiSchema({ name: 'RateLimits' })
export class RateLimitsDto {
  @ApiProperty({ type: 'integer', description: 'Requests allowed per minute.', example: 60 })
  perMinute: number;

  @ApiProperty({ type: 'integer', description: 'Requests allowed per day.', example: 1000 })
  perDay: number;
}

@ApiSchema({ name: 'Account' })
export class AccountDto {
  @ApiProperty({ type: 'integer', format: 'int64', example: 1 })
  id: number;

  @ApiProperty({ example: 'alex@example.com' })
  email: string;

  @ApiProperty({ enum: PLANS, example: 'free' })
  plan: Plan;

  @ApiProperty({ type: RateLimitsDto })
  limits: RateLimitsDto;

  @ApiProperty({ type: 'string', format: 'date-time' })
  createdAt: string;

  static from(account: Account): AccountDto {
    return {
      id: account.id,
      email: account.email,
      plan: account.plan,
      limits: limitsFor(account.plan, account.customPerMinute, account.customPerDay),
      createdAt: account.createdAt.toISOString(),
    };
  }
}
