// The peer: the service's listPets and createPet as a team would write them with the stack's defaults,
// to show what the service's design buys. NestJS with TypeORM entities and repositories, class-validator
// DTOs through the ValidationPipe, an API key guard reading the key through its repository, and
// @nestjs/throttler keeping a minute's and a day's window per account in Redis
// (@nest-lab/throttler-storage-redis). It serves the bench's seeded tables. Started by the bench on
// BENCH_PORT with BENCH_DATABASE_URL and BENCH_REDIS_URL.
import 'reflect-metadata';
import { createHash } from 'node:crypto';
import {
  Body,
  CanActivate,
  Controller,
  ExecutionContext,
  Get,
  Injectable,
  Module,
  Post,
  Query,
  UnauthorizedException,
  ValidationPipe,
} from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { InjectRepository, TypeOrmModule } from '@nestjs/typeorm';
import { SkipThrottle, ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import type { Request } from 'express';
import { IsNull, Repository } from 'typeorm';
import { ApiKeyEntity, PetEntity } from './pet.entity';

const STATUSES = ['available', 'pending', 'sold'];

class ListPetsQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit = 20;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  offset = 0;

  @IsOptional()
  @IsIn(STATUSES)
  status?: string;
}

class CreatePetDto {
  @IsString()
  @Length(1, 100)
  name: string;

  @IsInt()
  @Min(1)
  categoryId: number;

  @IsOptional()
  @IsIn(STATUSES)
  status?: string;
}

type AuthenticatedRequest = Request & { accountId?: string };

@Injectable()
class ApiKeyGuard implements CanActivate {
  constructor(@InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (context.getClass() === HealthController) return true;
    const secret = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!secret) throw new UnauthorizedException();
    const keyHash = createHash('sha256').update(secret).digest();
    const key = await this.keys.findOne({ where: { keyHash, revokedAt: IsNull() } });
    if (!key) throw new UnauthorizedException();
    request.accountId = key.accountId;
    return true;
  }
}

/** Limits per account, once the key guard has found it. */
@Injectable()
class AccountThrottlerGuard extends ThrottlerGuard {
  protected override getTracker(request: AuthenticatedRequest): Promise<string> {
    return Promise.resolve(request.accountId!);
  }
}

@Controller('v1/pets')
class PetsController {
  constructor(@InjectRepository(PetEntity) private readonly pets: Repository<PetEntity>) {}

  @Get()
  list(@Query() query: ListPetsQuery): Promise<PetEntity[]> {
    return this.pets.find({
      where: query.status ? { status: query.status } : {},
      order: { id: 'ASC' },
      take: query.limit,
      skip: query.offset,
    });
  }

  @Post()
  create(@Body() body: CreatePetDto): Promise<PetEntity> {
    return this.pets.save(this.pets.create({ ...body, categoryId: String(body.categoryId) }));
  }
}

/** What the bench polls until the peer serves; no key needed. */
@Controller('health')
class HealthController {
  @Get()
  @SkipThrottle({ minute: true, day: true })
  health(): { status: string } {
    return { status: 'ok' };
  }
}

/** Limits far above what the bench sends, as the service's bench accounts have: the windows are kept, never hit. */
const WINDOWS = [
  { name: 'minute', ttl: 60_000, limit: 1_000_000_000 },
  { name: 'day', ttl: 86_400_000, limit: 2_000_000_000 },
];

@Module({
  imports: [
    TypeOrmModule.forRoot({
      type: 'postgres',
      url: process.env.BENCH_DATABASE_URL,
      entities: [PetEntity, ApiKeyEntity],
    }),
    TypeOrmModule.forFeature([PetEntity, ApiKeyEntity]),
    ThrottlerModule.forRoot({
      throttlers: WINDOWS,
      storage: new ThrottlerStorageRedisService(process.env.BENCH_REDIS_URL!),
    }),
  ],
  controllers: [PetsController, HealthController],
  providers: [
    // In this order: the throttler counts the account the key guard found.
    { provide: APP_GUARD, useClass: ApiKeyGuard },
    { provide: APP_GUARD, useClass: AccountThrottlerGuard },
  ],
})
class PeerModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(PeerModule, { logger: ['error', 'warn'] });
  app.useGlobalPipes(new ValidationPipe({ transform: true, whitelist: true }));
  await app.listen(Number(process.env.BENCH_PORT), '127.0.0.1');
}

void main();
