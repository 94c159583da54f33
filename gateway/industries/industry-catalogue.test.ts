import { Industry } from '../../contracts/industries';
import { industriesOf } from './industry-catalogue';

describe('industry catalogue (shipped from the published NAICS 2017 and SIC lists)', () => {
  it('lists every NAICS 2017 code of 2 to 6 digits with its official definition and index examples', () => {
    const naics = industriesOf('NAICS2017');
    expect(naics.length).toBeGreaterThan(2000);
    expect(naics.filter((i) => i.Code.length === 6)).toHaveLength(1057);
    const restaurants = naics.find((i) => i.Code === '722511');
    expect(restaurants?.Title).toBe('Full-Service Restaurants');
    expect(restaurants?.Description).toMatch(
      /^This U\.S\. industry comprises establishments primarily engaged in providing food services/,
    );
    expect(restaurants?.Examples).toContain('Restaurants, full service');
    naics.forEach((industry) => expect(Industry.safeParse(industry).success).toBe(true));
  });

  it('strips the stray T footnote marker and never serves NULL or pointer descriptions', () => {
    const naics = industriesOf('NAICS2017');
    expect(naics.find((i) => i.Code === '11')?.Title).toBe('Agriculture, Forestry, Fishing and Hunting');
    expect(naics.filter((i) => /[a-z]T$/.test(i.Title))).toEqual([]);
    expect(
      naics.filter(
        (i) => i.Description === '' || i.Description === 'NULL' || /^See industry/.test(i.Description),
      ),
    ).toEqual([]);
    expect(naics.find((i) => i.Code === '5112')?.Description).toMatch(/computer software publishing/);
  });

  it('lists unique SIC codes with their NAICS counterparts as examples', () => {
    const sic = industriesOf('SIC');
    const codes = sic.map((i) => i.Code);
    expect(new Set(codes).size).toBe(codes.length);
    const software = sic.find((i) => i.Code === '7372');
    expect(software?.Title).toBe('Prepackaged Software');
    expect(software?.Examples).toEqual([
      'Software and Other Prerecorded Compact Disc, Tape, and Record Reproducing',
    ]);
    expect(sic.find((i) => i.Code === '7379')?.Title).toBe('Computer Related Services, NEC');
  });
});
