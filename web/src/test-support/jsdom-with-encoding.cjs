// jsdom lacks TextEncoder, TextDecoder and the Fetch API classes, which react-router's data routers
// use on every navigation; Node's serve (with Node's AbortController, which Node's Request requires).
// Component tests that render the router name this environment in a @jest-environment docblock.
const { TestEnvironment } = require('jest-environment-jsdom');
const { TextEncoder, TextDecoder } = require('node:util');

class JsdomWithEncoding extends TestEnvironment {
  async setup() {
    await super.setup();
    Object.assign(this.global, {
      TextEncoder,
      TextDecoder,
      Request,
      Response,
      Headers,
      AbortController,
      AbortSignal,
    });
  }
}

module.exports = JsdomWithEncoding;
