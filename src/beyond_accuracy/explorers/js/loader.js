// The static page's loader (tools/sphinx/explorers.py adds it to every page as a module script).
// It finds each .ba-widget the notebook stored (its JSON: {"data": ..., "lang": ...}), imports the
// explorer's bundle ./<module>.js next to this file, and renders it with a local model that has the
// anywidget methods the modules use: get, set, save_changes, on (and off).

function baLocalModel(values) {
  const handlers = new Map();
  return {
    get: (key) => values[key],
    set(key, value) {
      values[key] = value;
      for (const cb of handlers.get(`change:${key}`) || []) cb({ name: key, new: value });
    },
    save_changes() {},
    on(event, cb) {
      if (!handlers.has(event)) handlers.set(event, []);
      handlers.get(event).push(cb);
    },
    off(event, cb) {
      if (!event) handlers.clear();
      else if (!cb) handlers.delete(event);
      else handlers.set(event, (handlers.get(event) || []).filter((f) => f !== cb));
    },
  };
}

async function baMount(host) {
  if (host.dataset.baMounted) return;
  host.dataset.baMounted = "1";
  const name = host.dataset.module || "";
  if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`bad explorer module name: ${name}`);
  const script = host.querySelector('script[type="application/json"]');
  const payload = JSON.parse(script.textContent);
  const mod = await import(new URL(`./${name}.js`, import.meta.url).href);
  const target = document.createElement("div");
  host.appendChild(target);
  const model = baLocalModel({ state: {}, ...payload });
  await mod.default.render({ model, el: target });
  const fallback = host.querySelector(".ba-fallback");
  if (fallback) fallback.hidden = true;
  host.classList.add("ba-ready");
}

function baMountAll() {
  for (const host of document.querySelectorAll(".ba-widget[data-module]")) {
    baMount(host).catch((err) => {
      host.classList.add("ba-failed");
      console.error(err);
    });
  }
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", baMountAll);
else baMountAll();
