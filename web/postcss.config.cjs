module.exports = {
  plugins: { tailwindcss: { config: `${__dirname}/tailwind.config.cjs` }, autoprefixer: {} },
};
