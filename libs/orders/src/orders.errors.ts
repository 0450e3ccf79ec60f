import { AppError, NotFoundError, ValidationFailedError } from '@app/core';

export class OrderNotFoundError extends NotFoundError {
  constructor(orderId: number) {
    super(`No order ${orderId}.`);
  }
}

export class UnknownPetError extends ValidationFailedError {
  constructor(petId: number) {
    super(`petId ${petId} does not name a pet`, [{ field: 'petId', message: `petId ${petId} does not name a pet` }]);
  }
}

export class PetNotAvailableError extends AppError {
  constructor(petId: number, why = 'is not available') {
    super(409, 'pet_not_available', `Pet ${petId} ${why}.`);
  }
}

export class TooManyOpenOrdersError extends AppError {
  constructor(max: number) {
    super(409, 'too_many_open_orders', `An account may have at most ${max} orders placed and not yet decided.`);
  }
}

export class InvalidOrderStateError extends AppError {
  constructor(operation: string, status: string) {
    super(409, 'invalid_order_state', `An order that is ${status} cannot be asked to ${operation}.`);
  }
}
