import { FollowedOrder, OrderFollower } from '@app/orders';
import { PetRemovalFollower } from '@app/pets';
import { Injectable } from '@nestjs/common';
import { ApplicationNotifications } from './application-notifications';
import { ApplicationsRepository, StoredApplication } from './applications.repository';
import { MeetingsService } from './meetings/meetings.service';

/**
 * How an application follows its order and its pet, in the transaction of their change, as the service
 * (`by: service`): its order delivered, it is `adopted` and the pet's other open applications are closed
 * (`adopted`); its order cancelled (by a party, or its hold expired), it is closed (`order_cancelled`); its
 * pet removed, every open application of the pet is closed (`pet_removed`). The store and the catalogue
 * call it through the ports they declare. The meetings of an application that becomes final are cancelled.
 */
@Injectable()
export class ApplicationFollower implements OrderFollower, PetRemovalFollower {
  constructor(
    private readonly applications: ApplicationsRepository,
    private readonly notifications: ApplicationNotifications,
    private readonly meetings: MeetingsService,
  ) {}

  async orderChanged(order: FollowedOrder): Promise<void> {
    let changed: StoredApplication[] = [];
    if (order.status === 'delivered') {
      changed = await this.applications.followOrder(order.id, 'adopted', null);
      if (changed.length > 0) changed.push(...(await this.applications.closeOpenOfPet(order.petId, 'adopted')));
    } else if (order.status === 'cancelled') {
      changed = await this.applications.followOrder(order.id, 'closed', 'order_cancelled');
    }
    await this.notifications.updated(changed);
    await this.meetings.cancelWithEnded(changed);
  }

  async petRemoved(petId: number): Promise<void> {
    const closed = await this.applications.closeOpenOfPet(petId, 'pet_removed');
    await this.notifications.updated(closed);
    await this.meetings.cancelWithEnded(closed);
  }
}
