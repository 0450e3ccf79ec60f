import { Module } from '@nestjs/common';
import { OrdersModule } from '../orders.module';
import { orderExpiryProcessorProvider } from './order-expiry.processor';
import { OrderExpirySweeper } from './order-expiry.sweeper';

/** Hold expiry: the delayed jobs' processor and the sweep that backs it up. Imported by the worker app only. */
@Module({ imports: [OrdersModule], providers: [orderExpiryProcessorProvider, OrderExpirySweeper] })
export class OrdersWorkerModule {}
