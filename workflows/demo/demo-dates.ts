/** DEMO data is day-granular: a day number counts whole UTC days since 1970-01-01. */
export const DAY_MS = 86_400_000;

export const dayOf = (date: Date): number => Math.floor(date.getTime() / DAY_MS);
export const dateOfDay = (day: number): Date => new Date(day * DAY_MS);
export const dayOfIso = (isoDate: string): number => dayOf(new Date(`${isoDate}T00:00:00.000Z`));

/** The month (0 to 11) of a day number, for seasonality. */
export const monthOfDay = (day: number): number => dateOfDay(day).getUTCMonth();
