import { DynamicModule, forwardRef, Module } from '@nestjs/common';
import { IsInt, Min } from 'class-validator';
import { checkSettings, settingsSchemasOf } from './settings-check';
import { settingsModule } from './settings.module';
import { IntegerSetting, settingsProvider } from './settings';

class FirstSettings {
  @IntegerSetting()
  @IsInt()
  @Min(1)
  FIRST = 1;
}

class SecondSettings {
  @IntegerSetting()
  @IsInt()
  SECOND = 2;
}

class ThirdSettings {
  @IntegerSetting()
  @IsInt()
  THIRD = 3;
}

/** Not a settings schema: only what `settingsProvider` was given counts. */
class PlainService {}

@Module({ imports: [settingsModule(SecondSettings)], providers: [PlainService] })
class SecondModule {}

const thirdModule: DynamicModule = { module: class ThirdModule {}, providers: [settingsProvider(ThirdSettings)] };

@Module({
  imports: [
    settingsModule(FirstSettings),
    forwardRef(() => SecondModule),
    Promise.resolve({ module: class Wrapper {}, imports: [thirdModule] }),
  ],
})
class AppModule {}

describe('settingsSchemasOf', () => {
  it('finds the schemas of static, dynamic, promised and forward-referenced imports, once each', async () => {
    const schemas = await settingsSchemasOf(AppModule);
    expect(new Set(schemas)).toEqual(new Set([FirstSettings, SecondSettings, ThirdSettings]));
    expect(schemas).toHaveLength(3);
  });

  it('is given the same module for a schema every time', () => {
    expect(settingsModule(FirstSettings)).toBe(settingsModule(FirstSettings));
    expect(settingsModule(FirstSettings)).not.toBe(settingsModule(SecondSettings));
  });
});

describe('checkSettings', () => {
  it('passes when every schema of every module is valid', async () => {
    await expect(checkSettings([AppModule], { FIRST: '5' })).resolves.toBeUndefined();
  });

  it('names the bad settings of every schema in one error', async () => {
    const check = checkSettings([AppModule], { FIRST: '0', SECOND: 'two', THIRD: 'three' });
    await expect(check).rejects.toThrow(
      /^Invalid configuration:\n {2}FIRST=0: .*\n {2}SECOND="two": .*\n {2}THIRD="three": /,
    );
  });
});
