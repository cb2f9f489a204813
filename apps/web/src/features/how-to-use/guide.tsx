import type { ToolSlug } from '@gem/contracts/catalogue';
import type { ReactNode } from 'react';

/** One tool in the guide: what it does, how to get good results, and its limits. */
export type ToolGuide = {
  slug: ToolSlug;
  does: ReactNode;
  tips: ReactNode[];
  limits?: ReactNode[];
  /** An example of a well-phrased task, where the tool takes one. */
  example?: { weak: string; strong: string };
};

export type GuideSection = { id: string; title: string; intro: ReactNode; tools: ToolGuide[] };

export const guideSections: GuideSection[] = [
  {
    id: 'writing-tools',
    title: 'Writing tools',
    intro: (
      <>
        Paste the material you already have and GEM drafts the piece. The answers are written in Polish; you
        can describe the task in Polish or English. Treat every answer as a first draft: check names, numbers,
        dates and claims before anything is published.
      </>
    ),
    tools: [
      {
        slug: 'article',
        does: 'Writes a short article from your base content and a task you describe.',
        tips: [
          'Paste the facts GEM should use: a press release, report highlights, a webinar description, quotes with the speaker’s name and title.',
          'In “Describe the task for GEM”, say who reads it, where it appears, what they should do next and the tone you want.',
          'Not quite right? Change the task, not the content: “shorter, and lead with the survey result” works better than starting over.',
        ],
        limits: ['The article is at most 600 characters.', 'Generate needs both the content and the task.'],
        example: {
          weak: 'Write an article.',
          strong:
            'Write a news piece for our website for CFOs of mid-sized Polish companies. Lead with the 62% survey figure, keep a confident, plain tone and end with an invitation to the 12 March webinar.',
        },
      },
      {
        slug: 'social-media-post',
        does: 'Summarises a long document, then turns the summary into a social media post.',
        tips: [
          'Paste the whole document and press Summarize; read the summary and make sure it says what matters.',
          'Describe the post: the audience, the one message to land and the call to action.',
          'Choose the format (short, about 200 words, suits LinkedIn; long is about 300) and the persona the post speaks as (CEO).',
        ],
      },
      {
        slug: 'paid-ads',
        does: 'Writes paid ad copy from your base content, with a short analysis of the approach.',
        tips: [
          'Include the offer, who it is for and the one action you want (register, download, contact us).',
          'Add what must appear word for word, such as an event name or a legal line.',
        ],
        limits: ['The ad copy is at most 600 characters, counting spaces and emoji.'],
      },
      {
        slug: 'teaser-generator',
        does: 'Writes a short teaser that makes people want to read, watch or register.',
        tips: [
          'Paste the piece the teaser leads to, not just its title: GEM picks the hook from the content.',
          'Generate again for another angle, and keep the best lines from each.',
        ],
      },
    ],
  },
  {
    id: 'planning-tools',
    title: 'Planning tools',
    intro: <>Build a campaign brief in a conversation, then find the right audience for it in the CRM.</>,
    tools: [
      {
        slug: 'brief-creator',
        does: 'Builds a marketing brief with you in a chat, filling in the brief on the left as you talk.',
        tips: [
          'Start with what you know: the campaign name, its type (webinar, report, event…), the objective and the date.',
          'Answer GEM’s questions in short messages. Enter sends; Shift+Enter starts a new line.',
          'Use Generate target audience and Generate recommendations once the basics are in, then Accept brief.',
          'Unfinished chats wait under Brief Sessions; accepted briefs are under Finished Briefs. Export to Excel saves the brief as a spreadsheet.',
        ],
        limits: ['The chat speaks English, Polish or German; pick the language before you start.'],
      },
      {
        slug: 'campaign-audience-builder',
        does: 'Suggests audience segments and matching CRM reports for a campaign.',
        tips: [
          'Copy the Campaign ID from the campaign record in the CRM and describe the marketing goal in a sentence.',
          'Copy URL puts a report’s address on your clipboard; Open Report opens it in a new tab.',
        ],
        limits: [
          'The Campaign ID is exactly 18 letters and digits; anything else you paste (spaces, dashes) is removed.',
        ],
      },
    ],
  },
  {
    id: 'research-tools',
    title: 'Research tools',
    intro: <>Keep up with the markets and clients we follow, and see what competitors publish.</>,
    tools: [
      {
        slug: 'competitor-search',
        does: 'Searches what competitors have published on their Polish websites, newest first.',
        tips: [
          'Search for a topic, not a sentence: “ESG reporting”, “KSeF”, “AI in banking”.',
          'Pick one competitor or all of them, and narrow the window in days or weeks.',
          'Load More Results brings the next ten.',
        ],
      },
    ],
  },
  {
    id: 'files-and-print',
    title: 'Files and print',
    intro: (
      <>Tools that make or convert files. They work in your browser: nothing you put in them is uploaded.</>
    ),
    tools: [
      {
        slug: 'qr-code-generator',
        does: 'Makes a QR code from a link or text, as a print-ready PNG or an SVG. No sign-in needed.',
        tips: [
          'Use a short link: shorter text means bigger modules, and bigger modules scan more reliably.',
          'For print keep the resolution at 300 DPI or more; the PNG then prints at exactly the size you set.',
          'Give the code a white border of at least 4 modules: raise the padding, or leave white space in the layout. GEM warns you when it is too narrow.',
          'Designers usually prefer the SVG: it stays sharp at any size.',
          'Scan the code with your phone before it goes to print.',
        ],
        limits: [
          'About 2,900 letters at most (fewer with Polish letters or emoji).',
          'Size 100–500 pt, padding 0–64 pt, resolution 72–600 DPI (72 points make an inch).',
        ],
      },
      {
        slug: 'marketing-converter',
        does: 'Turns WebVTT captions (.vtt) into SRT subtitles (.srt).',
        tips: [
          'Export captions as WebVTT from Teams, Zoom, YouTube or your editor, then upload the file.',
          'Choose the caption language: it becomes part of the file name, e.g. webinar_pl_PL.srt.',
          'Check the preview, then Download SRT. Clear starts again with a new file.',
          'If the file cannot be converted, the message names the line to fix; open the file in a text editor, fix that line and upload it again.',
        ],
        limits: [
          'WebVTT files only, up to 20 MB, saved as UTF-8.',
          'Lines are wrapped at 47 characters, with at most 3 lines per subtitle; longer captions become consecutive subtitles, sharing their time.',
        ],
      },
      {
        slug: 'visual-brand-checker',
        does: 'Opens the brand checker, where you can check a visual against the brand rules before it goes out.',
        tips: [
          'If the page says the brand checker is not configured, ask the GEM administrators to set it up.',
        ],
      },
      {
        slug: 'brand-voice',
        does: 'Checks any text against the firm’s brand voice: banned and preferred terms in any Polish form, names spelt exactly, mandatory disclaimers, the channel’s limit, and the house’s typography.',
        tips: [
          'Paste the text and choose what it is for (a tool or a campaign channel): its disclaimers and limit are checked too.',
          'Each finding is marked in the text with its reason; Apply fixes one, Apply all fixes every one with a safe fix, and Undo takes it back.',
          'Every generated text is checked the same way as it is written: the findings appear in the output panel, and each campaign asset has Check.',
          'The rules are the brand profile your administrators keep; ask them to add a term or a disclaimer.',
        ],
        limits: ['Up to 150,000 characters at a time (about 10,000 words).'],
      },
    ],
  },
];

/** Spec §5 and §9 limits, in one table. */
export const limits: Array<{ what: string; limit: string }> = [
  { what: 'Article', limit: 'At most 600 characters' },
  { what: 'Paid ad copy', limit: 'At most 600 characters, counting spaces and emoji' },
  { what: 'Campaign ID (audience builder)', limit: 'Exactly 18 letters and digits' },
  {
    what: 'Marketing converter',
    limit: 'WebVTT (.vtt) only, up to 20 MB; 47 characters a line, 3 lines a subtitle',
  },
  { what: 'QR code for print', limit: '300 DPI or more, with a white border of 4 modules' },
  { what: 'Competitor search', limit: 'Ten results at a time, newest first; a window in days or weeks' },
];
