import { describe, expect, it } from 'vitest';

import { qrTargetOf, trackedLinks } from './campaign-pack';

const tags = { source: 'linkedin', medium: 'social', campaign: 'cfo-webinar-2027' };

describe('the tracked links of a text', () => {
  it('lists each link once, in order, as written and as tagged; a tagged one stays as it is', () => {
    const text = [
      'Zapisz się: https://gem.example/webinar.',
      'Raport: [pobierz](https://gem.example/raport?lang=pl#wyniki) i znowu https://gem.example/webinar',
      'Już oznaczony: https://gem.example/?utm_source=partner',
      'Napisz: mailto:cfo@gem.example',
    ].join('\n');
    expect(trackedLinks(text, tags)).toEqual([
      {
        written: 'https://gem.example/webinar',
        tagged:
          'https://gem.example/webinar?utm_source=linkedin&utm_medium=social&utm_campaign=cfo-webinar-2027',
      },
      {
        written: 'https://gem.example/raport?lang=pl#wyniki',
        tagged:
          'https://gem.example/raport?lang=pl&utm_source=linkedin&utm_medium=social&utm_campaign=cfo-webinar-2027#wyniki',
      },
      {
        written: 'https://gem.example/?utm_source=partner',
        tagged: 'https://gem.example/?utm_source=partner',
      },
    ]);
    expect(trackedLinks('Bez linków.', tags)).toEqual([]);
  });
});

describe('the QR code’s target', () => {
  it('is the landing page tagged for print with the campaign’s slug, or null without one', () => {
    expect(qrTargetOf('https://gem.example/webinar', 'Webinar dla CFO: Łódź 2027')).toBe(
      'https://gem.example/webinar?utm_source=qr&utm_medium=print&utm_campaign=webinar-dla-cfo-lodz-2027',
    );
    expect(qrTargetOf('https://gem.example/?utm_campaign=own', 'Webinar')).toBe(
      'https://gem.example/?utm_campaign=own',
    );
    expect(qrTargetOf(null, 'Webinar')).toBeNull();
  });
});
