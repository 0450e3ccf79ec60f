import type { MeetingDto } from './meeting.dto';
import type { StoredMeeting } from './meetings.repository';

/** A meeting as both parties read it: no account ids, no location when none was given. */
export function toMeetingDto(meeting: StoredMeeting): MeetingDto {
  return {
    id: meeting.id,
    applicationId: meeting.applicationId,
    startsAt: meeting.startsAt.toISOString(),
    endsAt: meeting.endsAt.toISOString(),
    ...(meeting.location !== null && { location: meeting.location }),
    status: meeting.status,
    createdAt: meeting.createdAt.toISOString(),
    updatedAt: meeting.updatedAt.toISOString(),
  };
}
