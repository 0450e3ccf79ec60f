import { IsBoolean, IsIn, IsInt, Min } from 'class-validator';
import { BooleanSetting, CrossFieldRules, IntegerSetting, loadSettings } from './settings';

class ExampleSettings implements CrossFieldRules {
  @IntegerSetting()
  @IsInt()
  @Min(1)
  LOW = 1;

  @IntegerSetting()
  @IsInt()
  HIGH = 10;

  @BooleanSetting()
  @IsBoolean()
  ENABLED = false;

  @IsIn(['a', 'b'])
  MODE: 'a' | 'b' = 'a';

  violations(): string[] {
    return this.HIGH < this.LOW ? [`HIGH=${this.HIGH}: must not be less than LOW`] : [];
  }
}

describe('loadSettings', () => {
  it('supplies defaults and ignores empty and unknown variables', () => {
    expect(loadSettings(ExampleSettings, { LOW: '', OTHER: 'x' })).toEqual(
      Object.assign(new ExampleSettings(), { LOW: 1, HIGH: 10, ENABLED: false, MODE: 'a' }),
    );
  });

  it('converts integers and booleans from their text', () => {
    expect(loadSettings(ExampleSettings, { LOW: '3', HIGH: ' 4 ', ENABLED: 'Yes' })).toMatchObject({
      LOW: 3,
      HIGH: 4,
      ENABLED: true,
    });
  });

  it('names every bad setting in one error', () => {
    expect(() => loadSettings(ExampleSettings, { LOW: '0', ENABLED: 'maybe', MODE: 'c' })).toThrow(
      /^Invalid configuration:\n {2}LOW=0: .*\n {2}ENABLED="maybe": .*\n {2}MODE="c": /,
    );
  });

  it('checks rules across settings once each setting is valid', () => {
    expect(() => loadSettings(ExampleSettings, { LOW: '5', HIGH: '4' })).toThrow(
      /^ {2}HIGH=4: must not be less than LOW$/m,
    );
  });
});
