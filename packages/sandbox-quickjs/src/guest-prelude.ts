// The guest's half of the bridge: JavaScript run in each fresh QuickJS context before the program.
// It is a string (not a function's toString()) so that no bundler or test transform can change it.
//
// Every built-in it relies on is taken when it runs, before the program: a program that replaces
// JSON.stringify or Array.prototype methods changes only what it sees itself, never how its
// arguments are copied out. It receives the host functions as parameters and keeps them in its
// closure, so the program cannot reach them except through `tools.*`, `console.*` and `Math.random`.
//
// The prelude is compiled once per engine, before the engine's snapshot (pristine-engine.ts), and
// run at the start of each program's run. Compiling guest code is slow in this build (about 7 KB a
// millisecond), so what a run may not need is compiled only when the program first uses it:
// `console`, `ToolError`, `Date`, the copy-out and the long-walk guards (the parts below, compiled
// by the host then and given what the prelude captured).

/** What the prelude is told about the run, as JSON. */
export interface GuestConfig {
  /** The functions' names as given (dotted names become nested objects of `tools`). */
  functions: readonly string[];
  clockMs: number;
  /** Upper bounds in UTF-16 units: a text longer than this is surely over the byte limit. */
  argumentChars: number;
  resultChars: number;
  consoleChars: number;
}

/** What `serialize` answers for a value too large to copy out. */
export const GUEST_TOO_LARGE = -1;

const PRELUDE_HEAD = `(function (hostCall, hostRandom, hostPart, configJSON) {
  "use strict";
  var global = globalThis;
  var apply = Reflect.apply;
  var construct = Reflect.construct;
  var defineProperty = Object.defineProperty;
  var getPrototypeOf = Object.getPrototypeOf;
  var create = Object.create;
  var freeze = Object.freeze;
  var isArray = Array.isArray;
  var stringify = JSON.stringify;
  var parse = JSON.parse;
  var StringOf = String;
  var stringSlice = String.prototype.slice;
  var ErrorClass = Error;
  var RealDate = Date;
  var dateToString = Date.prototype.toString;
  var dateParse = Date.parse;
  var dateUTC = Date.UTC;
  var config = parse(configJSON);
  var bridge = create(null);

  // A descriptor with no prototype: what the program puts on Object.prototype cannot change it.
  function hide(target, key, value) {
    var descriptor = create(null);
    descriptor.value = value;
    descriptor.writable = true;
    descriptor.configurable = true;
    defineProperty(target, key, descriptor);
  }
  function cut(text, length) {
    return text.length > length ? apply(stringSlice, text, [0, length]) : text;
  }
  // What build() makes, made once: at the first call that succeeds.
  function once(build) {
    var made;
    return function () {
      if (made === undefined) made = build();
      return made;
    };
  }
  // A global the program may read, replace or delete as if it were a plain one, made when first read.
  function lazyGlobal(key, make) {
    var descriptor = create(null);
    descriptor.get = function () {
      var value = make();
      // (Nothing made: the host failed and the run is ending; the accessor stays.)
      if (value !== undefined) {
        try {
          hide(global, key, value);
        } catch (error) {}
      }
      return value;
    };
    descriptor.set = function (value) {
      hide(global, key, value);
    };
    descriptor.configurable = true;
    defineProperty(global, key, descriptor);
  }

  // Nothing of the host, and no way to make code from strings.
  delete global.eval;
  delete global.SharedArrayBuffer;
  delete global.Atomics;
  delete global.WeakRef;
  delete global.FinalizationRegistry;
  var EvalErrorClass = EvalError;
  function blockConstructor(prototype, name) {
    var blocked = function () {
      throw new EvalErrorClass(name + ": code generation from strings is not allowed in the sandbox");
    };
    defineProperty(blocked, "name", { value: name });
    defineProperty(blocked, "prototype", { value: prototype, writable: false });
    defineProperty(prototype, "constructor", { value: blocked, writable: false, enumerable: false, configurable: false });
    return blocked;
  }
  hide(global, "Function", blockConstructor(Function.prototype, "Function"));
  blockConstructor(getPrototypeOf(async function () {}), "AsyncFunction");
  blockConstructor(getPrototypeOf(function* () {}), "GeneratorFunction");
  blockConstructor(getPrototypeOf(async function* () {}), "AsyncGeneratorFunction");

  // A clock that stands still at clockMs for the whole run (the Date part). Until the program first
  // reads the global, the real constructor is reachable by no other way: no date exists yet.
  var clock = config.clockMs;
  lazyGlobal("Date", once(function () {
    return hostPart(2, RealDate, dateToString, dateParse, dateUTC, apply, construct, create, defineProperty, hide, clock);
  }));

  // Math.random from the seed, drawn on the host (seeded-random.ts).
  hide(Math, "random", hostRandom);

  // JSON out of the guest (the copy-out part), made at its first use: a run that copies nothing out
  // (no call with an argument, a number returned) never compiles it.
  var TOO_LARGE = {};
  var copier = once(function () {
    return hostPart(3, stringify, isArray, TOO_LARGE);
  });

  var consoleChars = config.consoleChars;
  lazyGlobal("console", once(function () {
    return hostPart(0, copier, TOO_LARGE, cut, StringOf, ErrorClass, create, freeze, hide, consoleChars);
  }));
  var makeToolError = once(function () {
    return hostPart(1, ErrorClass, create, defineProperty, hide);
  });
  lazyGlobal("ToolError", makeToolError);
`;

const TOOLS_SECTION = `
  var TypeErrorClass = TypeError;
  var PromiseClass = Promise;
  var tools = create(null);
  function makeTool(name, index) {
    return function (args) {
      var text = args === undefined ? "{}" : copier()(args, config.argumentChars);
      if (text === undefined) {
        throw new TypeErrorClass("tools." + name + ": the argument must be JSON (an object, an array, a string, a number, a boolean or null)");
      }
      var argument = text === TOO_LARGE ? null : text;
      return new PromiseClass(function (resolve, reject) {
        hostCall(index, argument, resolve, reject);
      });
    };
  }
  for (var f = 0; f < config.functions.length; f++) {
    var name = config.functions[f];
    var path = name.split(".");
    var holder = tools;
    for (var p = 0; p < path.length - 1; p++) {
      if (holder[path[p]] === undefined) defineProperty(holder, path[p], { value: create(null), enumerable: true });
      holder = holder[path[p]];
    }
    defineProperty(holder, path[path.length - 1], { value: makeTool(name, f), enumerable: true });
  }
  function freezeTree(node) {
    for (var key in node) if (typeof node[key] === "object") freezeTree(node[key]);
    freeze(node);
  }
  freezeTree(tools);
  hide(global, "tools", tools);

  bridge.parse = parse;
  bridge.toolError = function (code, message) {
    return construct(makeToolError(), [code, message]);
  };
`;

const PRELUDE_TAIL = `
  bridge.serialize = function (value) {
    var text = copier()(value, config.resultChars);
    return text === TOO_LARGE ? ${GUEST_TOO_LARGE} : text;
  };
  bridge.read = Reflect.get;
  bridge.string = StringOf;

  // Last, as the prelude reads none of them itself: until the program first reads one of the
  // methods the long-walks part guards (guest part 4), each is an accessor that compiles the part
  // (which puts them all in place) and then is the method; set first, it is the plain property set.
  var natives = create(null);
  var accessors = create(null);
  // Taken now, before the program can replace any of them.
  var typedProto = getPrototypeOf(Uint8Array.prototype);
  var walkParts = [apply, create, defineProperty, hide, isArray, stringSlice, Object.getOwnPropertyDescriptor, Reflect.get, Reflect.set, Reflect.has, Reflect.deleteProperty, Proxy, Object, Number, Math.trunc, Symbol.isConcatSpreadable, String.prototype.concat, Symbol.match, Symbol.split, TypeError, RegExp, Array.prototype, String.prototype, natives, accessors, Symbol.replace, typedProto, typedProto.subarray, typedProto.slice, typedProto.set, Object.getOwnPropertyDescriptor(typedProto, "length").get, Array.prototype.toSpliced];
  var installWalks = once(function () {
    return hostPart(4, walkParts);
  });
  var ownDescriptor = Object.getOwnPropertyDescriptor;
  // One descriptor for all (defineProperty copies it), with no prototype: see hide.
  var lazy = create(null);
  lazy.configurable = true;
  function lazyMethod(prototype, tag, key) {
    var native = natives[tag] = prototype[key];
    var get = lazy.get = accessors[tag] = function () {
      installWalks();
      // Still this accessor: the host failed and the run is ending.
      return ownDescriptor(prototype, key).get === get ? native : prototype[key];
    };
    lazy.set = function (value) { hide(this, key, value); };
    defineProperty(prototype, key, lazy);
  }
  var names = ["indexOf", "lastIndexOf", "includes", "split", "replace", "join", "toLocaleString", "reverse", "copyWithin", "sort", "shift", "slice", "splice", "unshift", "forEach", "map", "filter", "some", "every", "flatMap", "reduce", "reduceRight", "flat", "concat"];
  for (var n = 0; n < names.length; n++) {
    if (n < 5) lazyMethod(String.prototype, "s:" + names[n], names[n]);
    if (n !== 3 && n !== 4) lazyMethod(Array.prototype, "a:" + names[n], names[n]);
  }
  lazyMethod(Array.prototype, "a:toSorted", "toSorted");
  lazyMethod(typedProto, "t:sort", "sort");
  lazyMethod(typedProto, "t:toSorted", "toSorted");
  return freeze(bridge);
})`;

/**
 * The prelude. It evaluates to
 * `function (hostCall, hostRandom, hostPart, configJSON)`, which sets up the context and returns
 * the bridge's internal functions: `serialize(value)` (JSON text, `undefined`, or
 * {@link GUEST_TOO_LARGE}), `read` and `string` (the context's own `Reflect.get` and `String`, for
 * the host to read a thrown value with), and the two the host answers a call with:
 * `parse` (the context's own `JSON.parse`) and `toolError(code, message)` (a new `ToolError`).
 *
 * `hostCall(index, text, resolve, reject)` gets the function's place in `functions` (a number is
 * read without decoding a string), an argument's JSON text, or `null` when it is surely over
 * `argumentBytes` (measured while it was being copied, before any text of it was made), and the
 * call's promise's resolving functions, which the host alone keeps and settles the call with. The
 * promise is the context's own `Promise`, taken before the program ran. A refused call (a limit)
 * is never settled: the run ends.
 * `hostRandom()` is `Math.random`. `hostPart(index, ...captured)` compiles {@link GUEST_PARTS}`[index]`
 * and answers what it makes of `(hostLog, ...captured)`.
 */
export function guestPrelude(): string {
  return PRELUDE;
}

const PRELUDE = PRELUDE_HEAD + TOOLS_SECTION + PRELUDE_TAIL;

// The console: one host call per console call, cut here to what the host can still keep. It is
// compiled after the program has started, so it names no global: only what it is given.
const CONSOLE_PART = `(function (hostLog, copier, TOO_LARGE, cut, StringOf, ErrorClass, create, freeze, hide, consoleChars) {
  "use strict";
  var consoleSent = 0;
  function describeValue(item) {
    try {
      var name = item.name;
      var message = item.message;
      return StringOf(name) + ": " + StringOf(message);
    } catch (error) {
      return "[error]";
    }
  }
  function format(item, room) {
    var type = typeof item;
    if (type === "string") return cut(item, room);
    if (type === "function") return "[function]";
    if (type === "object" && item !== null) {
      if (item instanceof ErrorClass) return cut(describeValue(item), room);
      try {
        var text = copier()(item, room);
        if (text === TOO_LARGE) return "[too large to print]";
        if (text !== undefined) return cut(text, room);
      } catch (error) {}
    }
    try {
      return cut(StringOf(item), room);
    } catch (error) {
      return "[unprintable]";
    }
  }
  function makeLog(level) {
    return function () {
      var room = consoleChars - consoleSent + 1;
      if (room <= 0) return;
      var line = "";
      for (var index = 0; index < arguments.length && line.length < room; index++) {
        line += (index > 0 ? " " : "") + format(arguments[index], room - line.length);
      }
      line = cut(line, room);
      consoleSent += line.length;
      hostLog(level, line);
    };
  }
  var console = create(null);
  hide(console, "log", makeLog("log"));
  hide(console, "info", makeLog("info"));
  hide(console, "warn", makeLog("warn"));
  hide(console, "error", makeLog("error"));
  hide(console, "debug", makeLog("log"));
  return freeze(console);
})`;

// ToolError, compiled when the program first reads it or a call first fails. It names no global.
const TOOL_ERROR_PART = `(function (hostLog, ErrorClass, create, defineProperty, hide) {
  "use strict";
  class ToolError extends ErrorClass {
    constructor(code, message) {
      super(message);
      var descriptor = create(null);
      descriptor.value = code;
      descriptor.writable = true;
      descriptor.enumerable = true;
      descriptor.configurable = true;
      defineProperty(this, "code", descriptor);
    }
  }
  hide(ToolError.prototype, "name", "ToolError");
  return ToolError;
})`;

// The virtual Date, compiled when the program first reads the global. It names no global.
const DATE_PART = `(function (hostLog, RealDate, dateToString, dateParse, dateUTC, apply, construct, create, defineProperty, hide, clock) {
  "use strict";
  var VirtualDate = function Date(year, month, day, hours, minutes, seconds, ms) {
    if (new.target === undefined) return apply(dateToString, new RealDate(clock), []);
    var args = [];
    for (var index = 0; index < arguments.length; index++) args[index] = arguments[index];
    return construct(RealDate, args.length === 0 ? [clock] : args, new.target);
  };
  var descriptor = create(null);
  descriptor.value = RealDate.prototype;
  descriptor.writable = false;
  defineProperty(VirtualDate, "prototype", descriptor);
  hide(RealDate.prototype, "constructor", VirtualDate);
  hide(VirtualDate, "now", function now() { return clock; });
  hide(VirtualDate, "parse", function parse(text) { return apply(dateParse, RealDate, [text]); });
  hide(VirtualDate, "UTC", function UTC() { return apply(dateUTC, RealDate, arguments); });
  return VirtualDate;
})`;

// JSON out of the guest: JSON.stringify's own walk, with a replacer that drops the keys that could
// change a prototype on the other side and counts a lower bound of the text's length as it goes, so
// an oversized value is refused before its text is made. It names no global.
const COPY_OUT_PART = `(function (hostLog, stringify, isArray, TOO_LARGE) {
  "use strict";
  return function copyOut(value, maxChars) {
    var total = 0;
    function replacer(key, item) {
      if (key === "__proto__" || key === "constructor" || key === "prototype") return undefined;
      var type = typeof item;
      var size = 0;
      if (type === "string") size = item.length + 2;
      else if (type === "object") size = item === null ? 4 : 2;
      else if (type === "number" || type === "boolean") size = 1;
      if (size > 0 && key !== "") size += isArray(this) ? 1 : key.length + 3;
      total += size;
      if (total > maxChars) throw TOO_LARGE;
      return item;
    }
    var text;
    try {
      text = stringify(value, replacer);
    } catch (error) {
      if (error === TOO_LARGE) return TOO_LARGE;
      throw error;
    }
    if (text !== undefined && text.length > maxChars) return TOO_LARGE;
    return text;
  };
})`;

// QuickJS checks its interrupt only in bytecode, and some of its built-ins walk in C for as long as
// they are asked to: an Array method over a huge length of holes ([].length = 2 ** 32 - 1, or
// { length: 2 ** 40 } through .call), a string searched for a long near-match. Past a bound, such a
// method works in pieces with bytecode between them (a proxy whose traps are bytecode; native
// searches of bounded work), so the CPU limit applies. Compiled when the program first reads one
// of these methods (see the prelude's lazyMethods); it installs each that is still the prelude's
// accessor, from the built-ins as they were before the program ran, and names no global.
const LONG_WALKS_PART = `(function (hostLog, captured) {
  "use strict";
  var apply = captured[0], create = captured[1], defineProperty = captured[2], hide = captured[3], isArray = captured[4], stringSlice = captured[5];
  var c = {
    getOwnDescriptor: captured[6], reflectGet: captured[7], reflectSet: captured[8], reflectHas: captured[9], reflectDelete: captured[10],
    ProxyClass: captured[11], ObjectOf: captured[12], NumberOf: captured[13], truncate: captured[14], spreadable: captured[15],
    stringConcat: captured[16], symbolMatch: captured[17], symbolSplit: captured[18], TypeErrorOf: captured[19], RegExpClass: captured[20],
    arrayProto: captured[21], stringProto: captured[22], natives: captured[23], accessors: captured[24], symbolReplace: captured[25],
  };
  /** Puts \`method\` where the prelude's accessor for \`tag\` stands, unless the program replaced it. */
  function install(prototype, tag, method) {
    var key = apply(stringSlice, tag, [2]);
    var now = c.getOwnDescriptor(prototype, key);
    if (now !== undefined && now.get !== undefined && now.get === c.accessors[tag]) hide(prototype, key, method);
  }
  var LONG = 131072;
  var reflectGet = c.reflectGet;
  var reflectSet = c.reflectSet;
  var reflectHas = c.reflectHas;
  var reflectDelete = c.reflectDelete;
  var ProxyClass = c.ProxyClass;
  var ObjectOf = c.ObjectOf;
  var walked = create(null);
  walked.get = function (target, key) { return reflectGet(target, key); };
  walked.set = function (target, key, value) { return reflectSet(target, key, value); };
  walked.has = function (target, key) { return reflectHas(target, key); };
  walked.deleteProperty = function (target, key) { return reflectDelete(target, key); };
  function isLong(value) {
    return (typeof value === "object" && value !== null) || typeof value === "function" ? value.length > LONG : false;
  }
  function walkedCopy(value) {
    return isLong(value) ? new ProxyClass(value, walked) : value;
  }
  // callbackArity: 2 for a callback of (value, index, object), 3 for reduce's (total, value, index,
  // object), 0 for none; they are given the program's object, not the proxy.
  function guardWalk(key, callbackArity) {
    var native = c.natives["a:" + key];
    var guarded = {
      [key]() {
        var args = [];
        for (var index = 0; index < arguments.length; index++) args[index] = arguments[index];
        if (this === undefined || this === null) return apply(native, this, args);
        var object = ObjectOf(this);
        // (flatMap always: what its callback returns can be long whatever the object.)
        if (key !== "flatMap" && !isLong(object)) return apply(native, this, args);
        var callback = args[0];
        if (callbackArity === 2 && typeof callback === "function")
          args[0] = function (value, index) {
            var answer = apply(callback, this, [value, index, object]);
            // What flatMap spreads (an array, never stored itself) is walked as a proxy too.
            return key === "flatMap" && isArray(answer) ? walkedCopy(answer) : answer;
          };
        if (callbackArity === 3 && typeof callback === "function")
          args[0] = function (total, value, index) { return apply(callback, undefined, [total, value, index, object]); };
        var proxy = new ProxyClass(object, walked);
        var result = apply(native, proxy, args);
        return result === proxy ? object : result;
      },
    }[key];
    var lengthDescriptor = create(null);
    lengthDescriptor.value = native.length;
    defineProperty(guarded, "length", lengthDescriptor);
    install(c.arrayProto, "a:" + key, guarded);
    return guarded;
  }
  var walks = ["indexOf", "lastIndexOf", "includes", "join", "toLocaleString", "reverse", "copyWithin", "sort", "shift", "slice", "splice", "unshift"];
  var guardedSort;
  for (var w = 0; w < walks.length; w++) {
    var walker = guardWalk(walks[w], 0);
    if (walks[w] === "sort") guardedSort = walker;
  }
  var callbackWalks = ["forEach", "map", "filter", "some", "every", "flatMap"];
  var guardedFlatMap;
  for (var k = 0; k < callbackWalks.length; k++) {
    var made = guardWalk(callbackWalks[k], 2);
    if (callbackWalks[k] === "flatMap") guardedFlatMap = made;
  }
  guardWalk("reduce", 3);
  guardWalk("reduceRight", 3);
  // flat walks the arrays inside too: it is flatMap's, which walks each as a proxy when it is long.
  var NumberOf = c.NumberOf;
  var truncate = c.truncate;
  var guardedFlat = {
    flat() {
      var depth = arguments.length > 0 && arguments[0] !== undefined ? NumberOf(arguments[0]) : 1;
      depth = depth !== depth ? 0 : truncate(depth);
      return apply(guardedFlatMap, this, [
        function (element) {
          if (!isArray(element)) return element;
          if (depth <= 0) return [element];
          return depth > 1 ? apply(guardedFlat, element, [depth - 1]) : element;
        },
      ]);
    },
  }.flat;
  install(c.arrayProto, "a:flat", guardedFlat);
  // concat walks its arguments too, those it spreads.
  var nativeConcat = c.natives["a:concat"];
  var spreadable = c.spreadable;
  // A value concat spreads (its elements are copied, never it) as a proxy when it is long.
  function spreadCopy(value) {
    if (typeof value !== "object" || value === null) return value;
    var flag = value[spreadable];
    return (flag !== undefined ? !!flag : isArray(value)) ? walkedCopy(value) : value;
  }
  install(c.arrayProto, "a:concat", {
    concat(item) {
      var args = [];
      for (var index = 0; index < arguments.length; index++) args[index] = spreadCopy(arguments[index]);
      if (this === undefined || this === null) return apply(nativeConcat, this, args);
      return apply(nativeConcat, spreadCopy(ObjectOf(this)), args);
    },
  }.concat);

  // QuickJS searches a string for a string in C, in time of the text's length times the needle's,
  // with no interrupt check: past SEARCH_WORK, the search is cut into native searches of at most
  // that much work each, with bytecode (and so a check) between them.
  var SEARCH_WORK = 16777216;
  var nativeIndexOf = c.natives["s:indexOf"];
  var nativeLastIndexOf = c.natives["s:lastIndexOf"];
  var nativeIncludes = c.natives["s:includes"];
  var nativeSplit = c.natives["s:split"];
  var stringConcat = c.stringConcat;
  var symbolMatch = c.symbolMatch;
  var symbolSplit = c.symbolSplit;
  function toText(value) {
    return apply(stringConcat, "", [value]);
  }
  function toInteger(value) {
    var number = NumberOf(value);
    return number !== number ? 0 : truncate(number);
  }
  function isHeavy(text, needle) {
    return text.length * needle.length > SEARCH_WORK;
  }
  function windowStep(needle) {
    return needle.length >= SEARCH_WORK ? 1 : truncate(SEARCH_WORK / needle.length);
  }
  function searchForward(text, needle, from) {
    var step = windowStep(needle);
    for (var start = from < 0 ? 0 : from; start + needle.length <= text.length; start += step) {
      var window = apply(stringSlice, text, [start, start + step + needle.length - 1]);
      var found = apply(nativeIndexOf, window, [needle]);
      if (found !== -1) return start + found;
    }
    return -1;
  }
  function searchBackward(text, needle, from) {
    var step = windowStep(needle);
    var last = text.length - needle.length;
    for (last = from < last ? from : last; last >= 0; last -= step) {
      var first = last - step + 1 < 0 ? 0 : last - step + 1;
      var found = apply(nativeLastIndexOf, apply(stringSlice, text, [first, last + needle.length]), [needle]);
      if (found !== -1) return first + found;
    }
    return -1;
  }
  function textOf(value) {
    if (value === undefined || value === null) throw new TypeErrorOf("String.prototype method called on null or undefined");
    return toText(value);
  }
  var TypeErrorOf = c.TypeErrorOf;
  var RegExpClass = c.RegExpClass;
  // A descriptor with no prototype, as hide's: what the program puts on Object.prototype changes nothing.
  function appendPart(parts, value) {
    var descriptor = create(null);
    descriptor.value = value;
    descriptor.writable = true;
    descriptor.enumerable = true;
    descriptor.configurable = true;
    defineProperty(parts, parts.length, descriptor);
  }
  install(c.stringProto, "s:indexOf", {
    indexOf(searchString) {
      var text = textOf(this);
      var needle = toText(searchString);
      if (!isHeavy(text, needle)) return apply(nativeIndexOf, text, [needle, arguments[1]]);
      return searchForward(text, needle, toInteger(arguments[1]));
    },
  }.indexOf);
  install(c.stringProto, "s:lastIndexOf", {
    lastIndexOf(searchString) {
      var text = textOf(this);
      var needle = toText(searchString);
      if (!isHeavy(text, needle)) return apply(nativeLastIndexOf, text, [needle, arguments[1]]);
      var position = NumberOf(arguments[1]);
      return searchBackward(text, needle, position !== position ? text.length : truncate(position));
    },
  }.lastIndexOf);
  install(c.stringProto, "s:includes", {
    includes(searchString) {
      var text = textOf(this);
      var isObject = (typeof searchString === "object" && searchString !== null) || typeof searchString === "function";
      // A RegExp is refused by the native (a TypeError).
      if (isObject && (searchString instanceof RegExpClass || searchString[symbolMatch])) return apply(nativeIncludes, text, [searchString]);
      var needle = toText(searchString);
      if (!isHeavy(text, needle)) return apply(nativeIncludes, text, [needle, arguments[1]]);
      return searchForward(text, needle, toInteger(arguments[1])) !== -1;
    },
  }.includes);
  install(c.stringProto, "s:split", {
    split(separator, limit) {
      var isObject = (typeof separator === "object" && separator !== null) || typeof separator === "function";
      // A RegExp's split (checked) or the program's own splitter, or no separator: the native's.
      if (this === undefined || this === null || separator === undefined || separator === null || (isObject && separator[symbolSplit] !== undefined))
        return apply(nativeSplit, this, [separator, limit]);
      var text = toText(this);
      var needle = toText(separator);
      if (!isHeavy(text, needle)) return apply(nativeSplit, text, [needle, limit]);
      var most = limit === undefined ? 4294967295 : NumberOf(limit) >>> 0;
      var parts = [];
      if (most === 0) return parts;
      var from = 0;
      for (var at = searchForward(text, needle, 0); at !== -1; at = searchForward(text, needle, from)) {
        appendPart(parts, apply(stringSlice, text, [from, at]));
        if (parts.length === most) return parts;
        from = at + needle.length;
      }
      appendPart(parts, apply(stringSlice, text, [from]));
      return parts;
    },
  }.split);
  // replace with a string pattern: the first match found as above, the replacement as the native
  // makes it (with no captures, only $$, $&, $\` and $' are patterns; the rest is as written).
  var nativeReplace = c.natives["s:replace"];
  var symbolReplace = c.symbolReplace;
  function substitution(template, matched, text, at) {
    var out = "";
    for (var i = 0; i < template.length; i++) {
      var ch = template[i];
      var next = template[i + 1];
      if (ch !== "$" || next === undefined) out += ch;
      else if (next === "$") { out += "$"; i++; }
      else if (next === "&") { out += matched; i++; }
      else if (next === "\`") { out += apply(stringSlice, text, [0, at]); i++; }
      else if (next === "'") { out += apply(stringSlice, text, [at + matched.length]); i++; }
      else out += ch;
    }
    return out;
  }
  install(c.stringProto, "s:replace", {
    replace(searchValue, replaceValue) {
      var isObject = (typeof searchValue === "object" && searchValue !== null) || typeof searchValue === "function";
      // A RegExp (checked) or the program's own replacer, on null or undefined: the native's.
      if (this === undefined || this === null || (isObject && searchValue[symbolReplace] !== undefined))
        return apply(nativeReplace, this, [searchValue, replaceValue]);
      var text = toText(this);
      var needle = toText(searchValue);
      var functional = typeof replaceValue === "function";
      if (!isHeavy(text, needle)) return apply(nativeReplace, text, [needle, functional ? replaceValue : toText(replaceValue)]);
      var template = functional ? undefined : toText(replaceValue);
      var at = searchForward(text, needle, 0);
      if (at === -1) return text;
      var replacement = functional ? toText(replaceValue(needle, at, text)) : substitution(template, needle, text, at);
      return apply(stringSlice, text, [0, at]) + replacement + apply(stringSlice, text, [at + needle.length]);
    },
  }.replace);

  // A typed array's own sort is one C sort, in time of its length times its logarithm (a byte array
  // of 50 million, seconds): past LONG elements it sorts pieces of LONG natively, then merges them
  // in bytecode. (With a comparison function every comparison is bytecode already: the native's.)
  var typedProto = captured[26], typedSubarray = captured[27], typedSlice = captured[28], typedSet = captured[29], typedLength = captured[30];
  var nativeTypedSort = c.natives["t:sort"];
  // The default order: numbers ascending, -0 before +0, NaN last (BigInts compare as themselves).
  function sortsBefore(x, y) {
    if (x !== x) return false;
    if (y !== y) return true;
    if (x < y) return true;
    if (x > y || x !== 0 || y !== 0) return false;
    return 1 / x < 1 / y;
  }
  function mergeRuns(from, to, width, length) {
    for (var left = 0; left < length; left += 2 * width) {
      var middle = left + width < length ? left + width : length;
      var right = left + 2 * width < length ? left + 2 * width : length;
      var i = left, j = middle, k = left;
      while (i < middle && j < right) to[k++] = sortsBefore(from[j], from[i]) ? from[j++] : from[i++];
      while (i < middle) to[k++] = from[i++];
      while (j < right) to[k++] = from[j++];
    }
  }
  var guardedTypedSort = {
    sort(comparefn) {
      var length = apply(typedLength, this, []);
      if (comparefn !== undefined || length <= LONG) return apply(nativeTypedSort, this, [comparefn]);
      for (var start = 0; start < length; start += LONG)
        apply(nativeTypedSort, apply(typedSubarray, this, [start, start + LONG]), []);
      var from = this;
      var to = apply(typedSlice, this, []);
      for (var width = LONG; width < length; width *= 2) {
        mergeRuns(from, to, width, length);
        var swap = from; from = to; to = swap;
      }
      if (from !== this) apply(typedSet, this, [from]);
      return this;
    },
  }.sort;
  install(typedProto, "t:sort", guardedTypedSort);
  // toSorted sorts a copy in C the same way, the Array's too (by the elements' text): past LONG,
  // the copy is made natively and sorted as above.
  var nativeTypedToSorted = c.natives["t:toSorted"];
  install(typedProto, "t:toSorted", {
    toSorted(comparefn) {
      var length = apply(typedLength, this, []);
      if (comparefn !== undefined || length <= LONG) return apply(nativeTypedToSorted, this, [comparefn]);
      return apply(guardedTypedSort, apply(typedSlice, this, []), []);
    },
  }.toSorted);
  var nativeToSorted = c.natives["a:toSorted"];
  var nativeToSpliced = captured[31];
  install(c.arrayProto, "a:toSorted", {
    toSorted(comparefn) {
      if (comparefn !== undefined || this === undefined || this === null || !isLong(ObjectOf(this)))
        return apply(nativeToSorted, this, [comparefn]);
      // A dense copy, holes read as undefined (as toSorted's own), then the guarded sort.
      return apply(guardedSort, apply(nativeToSpliced, this, [0, 0]), []);
    },
  }.toSorted);

  return true;
})`;

/**
 * The parts of the guest compiled only when a run first uses them, by their index in `hostPart`.
 * Each evaluates to a function of `(hostLog, ...captured)` that names no global, so a program
 * that replaced a built-in before first using `console` changes nothing of it.
 */
export const GUEST_PARTS: readonly string[] = [
  CONSOLE_PART,
  TOOL_ERROR_PART,
  DATE_PART,
  COPY_OUT_PART,
  LONG_WALKS_PART,
];
