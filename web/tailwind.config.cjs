// Tremor 3 is built on Tailwind 3: its classes live in node_modules and must be scanned too.
module.exports = {
  content: [
    `${__dirname}/index.html`,
    `${__dirname}/src/**/*.{ts,tsx}`,
    `${__dirname}/../node_modules/@tremor/**/*.{js,ts,jsx,tsx}`,
  ],
  theme: { extend: {} },
  plugins: [],
};
