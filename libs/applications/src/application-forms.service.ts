import { PetsService } from '@app/pets';
import { Injectable } from '@nestjs/common';
import { checkForm, FormField } from './application-form';
import { ApplicationFormsRepository, StoredForm } from './application-forms.repository';
import type { ApplicationFormDto, PetApplicationFormDto, PutApplicationFormDto } from './dto/application-form.dto';

/** The form of a lister that never set one: no questions. */
const NO_FORM = { version: 0, fields: [] };

/** Each field as stored and shown: `required` always, `options` and `help` only when given. */
function toField(field: PutApplicationFormDto['fields'][number]): FormField {
  return {
    name: field.name,
    label: field.label,
    type: field.type,
    required: field.required ?? false,
    ...(field.options && { options: field.options }),
    ...(field.help && { help: field.help }),
  };
}

export function toFormDto(form: StoredForm): ApplicationFormDto {
  return {
    version: form.version,
    fields: form.fields,
    ...(form.notifyEmail !== null && { notifyEmail: form.notifyEmail }),
    updatedAt: form.updatedAt.toISOString(),
  };
}

/** Listers' application forms. */
@Injectable()
export class ApplicationFormsService {
  constructor(
    private readonly forms: ApplicationFormsRepository,
    private readonly pets: PetsService,
  ) {}

  async put(accountId: number, body: PutApplicationFormDto): Promise<ApplicationFormDto> {
    const fields = body.fields.map(toField);
    checkForm(fields);
    return toFormDto(await this.forms.put(accountId, fields, body.notifyEmail ?? null));
  }

  async get(accountId: number): Promise<ApplicationFormDto> {
    const form = await this.forms.find(accountId);
    return form ? toFormDto(form) : NO_FORM;
  }

  /** The questions of the pet's lister, as they are now. */
  async petQuestions(petId: number): Promise<PetApplicationFormDto> {
    return this.questions((await this.pets.get(petId)).listerAccountId);
  }

  /**
   * What an applicant reads and answers: the questions, never where the staff are told (none for a pet
   * listed before listers were recorded).
   */
  private async questions(listerAccountId: number | undefined): Promise<PetApplicationFormDto> {
    const form = listerAccountId === undefined ? undefined : await this.forms.find(listerAccountId);
    return form ? { version: form.version, fields: form.fields } : NO_FORM;
  }
}
