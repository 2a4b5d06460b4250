// Issue 35's seventh round (docs/spam.md, "Seventh round"): the classifier reads text in the scripts its word features
// skip (Chinese, Japanese, Thai, Cyrillic, Arabic, Devanagari …) as pieces of two characters, and the Latin words
// written inside it without spaces ("谷歌SEO优化"); each on spam and on the customer's twin in the same script.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkIntelligent } from '../src/pipeline/spam/index.ts';
import { featureBuckets, hashFeature } from '../src/pipeline/spam/text.ts';
import { submission } from './spam-signal-assert.ts';

const has = (text: string, feature: string) => featureBuckets(text).includes(hashFeature(feature));

describe('other scripts, seventh round', () => {
  it('reads two-character pieces of other scripts and the Latin words inside them, and nothing of a script as such', () => {
    assert.ok(has('专业谷歌SEO优化', 'w:seo'), 'a Latin word written inside Chinese is read as a word');
    assert.ok(has('专业谷歌SEO优化', 'k:谷歌'));
    assert.ok(has('Продвижение сайтов', 'k:са'));
    assert.ok(!has('专业谷歌SEO优化', 'w:专业谷歌seo优化'), 'the mixed run is not one word');
    assert.ok(has('один', 'k:од') && !has('one', 'k:on'), 'Latin words keep their own features only');
    // Two texts in the same script with no character in common share no content feature: there is no script feature.
    const hello = new Set(featureBuckets('您好', false));
    assert.deepEqual(featureBuckets('谢谢', false).filter((bucket) => hello.has(bucket)), []);
    const greeting = new Set(featureBuckets('привет', false));
    assert.deepEqual(featureBuckets('да', false).filter((bucket) => greeting.has(bucket)), []);
  });

  it('a Chinese SEO pitch is flagged and a Chinese or Japanese customer\'s question is not', async () => {
    const pitch = await checkIntelligent(submission('专业谷歌SEO优化,三个月排名首页,无效退款。详情请加微信 seo2026pro'), null);
    assert.equal(pitch.spam, true, pitch.reason);
    for (const message of [
      '您好,我想问一下你们周六上午开门吗?我想带孩子来看看钢琴课,学费怎么算?',
      'こんにちは。来週の土曜日に3人で予約できますか?駐車場はありますか?',
      'สวัสดีครับ ร้านเปิดกี่โมงครับ มีที่จอดรถไหมครับ',
      'Здравствуйте, подскажите, пожалуйста, есть ли у вас доставка в Химки и сколько она стоит?',
    ]) {
      const verdict = await checkIntelligent(submission(message), null);
      assert.equal(verdict.spam, false, `${message}: ${verdict.reason}`);
    }
  });
});
