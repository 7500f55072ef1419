// Building the page's nodes. Text always goes in as text nodes, never as markup.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.setAttribute("class", value);
    else if (name === "text") node.textContent = String(value);
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An HTML element: h("button", {class: "x", onclick: f}, "text", child). */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element, made in the SVG namespace. */
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
  return node;
}

export function byId(id) {
  return document.getElementById(id);
}

/** Replace the options of a <select>: items are [value, label] or {group, items}. */
export function setOptions(select, items, chosen) {
  clear(select);
  for (const item of items) {
    if (item.group) {
      const group = h("optgroup", { label: item.group });
      for (const [value, label] of item.items) group.append(h("option", { value }, label));
      select.append(group);
    } else {
      select.append(h("option", { value: item[0] }, item[1]));
    }
  }
  if (chosen !== undefined) select.value = chosen;
}

/** A function that runs `fn` once `ms` after the last call. */
export function debounce(fn, ms) {
  let timer = null;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}
