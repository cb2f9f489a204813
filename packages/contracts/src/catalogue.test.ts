import { describe, expect, it } from 'vitest';
import { findMarketArea, findTool, freeTools, marketAreas, toolSlugs, tools } from './catalogue';

describe('tool catalogue', () => {
  it("lists the ten tools in the order the spec gives, then the brand voice's Check text (issue 31)", () => {
    expect(tools.map((t) => t.slug)).toEqual([
      'social-media-post',
      'teaser-generator',
      'competitor-search',
      'qr-code-generator',
      'paid-ads',
      'article',
      'visual-brand-checker',
      'brief-creator',
      'marketing-converter',
      'campaign-audience-builder',
      'brand-voice',
    ]);
    expect(tools.map((t) => t.slug)).toEqual([...toolSlugs]);
  });

  it('needs sign-in for every tool but the QR code generator', () => {
    expect(freeTools.map((t) => t.slug)).toEqual(['qr-code-generator']);
    expect(findTool('article')?.authRequired).toBe(true);
  });

  it('gives every tool a name and an illustration of its own', () => {
    for (const t of tools) expect(t.name.trim()).not.toBe('');
    expect(new Set(tools.map((t) => t.photo)).size).toBe(tools.length);
  });
});

describe('market catalogue', () => {
  it('lists the eleven areas with the spec slugs, in order', () => {
    expect(marketAreas.map((a) => a.slug)).toEqual([
      'pwc',
      'priority-clients',
      'competitors',
      'polish_business',
      'technology',
      'esg',
      'financial_sector',
      'retail_consumer',
      'leadership',
      'real_estate',
      'pharma',
    ]);
  });

  it('gives priority clients its thirteen sub-areas and no other area any', () => {
    expect(findMarketArea('priority-clients')?.children.map((c) => c.slug)).toEqual([
      'citi',
      'ergo-hestia',
      'ing',
      'mcdonalds',
      'mbank',
      'mid-europa-partners',
      'orange',
      'orlen',
      'pko-bp',
      'polpharma',
      'stock-spirits',
      'volkswagen',
      'zabka',
    ]);
    expect(marketAreas.filter((a) => a.children.length > 0).map((a) => a.slug)).toEqual(['priority-clients']);
  });

  it('uses proper display names', () => {
    expect(findMarketArea('esg')?.name).toBe('ESG');
    expect(findMarketArea('retail_consumer')?.name).toBe('Retail & consumer');
    const names = findMarketArea('priority-clients')?.children.map((c) => c.name);
    expect(names).toContain('PKO BP');
    expect(names).toContain('Żabka');
  });
});
