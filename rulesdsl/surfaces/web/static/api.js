// Talking to the server: JSON in, JSON out; an error answer becomes an ApiError.

export class ApiError extends Error {
  constructor(status, data) {
    super((data && data.error) || `the server answered ${status}`);
    this.status = status;
    this.data = data || {};
  }
}

export async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, { error: `the server cannot be reached (${err.message})` });
  }
  const type = response.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await response.json() : { text: await response.text() };
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export const get = (path) => api("GET", path);
export const post = (path, body) => api("POST", path, body === undefined ? {} : body);
export const put = (path, body) => api("PUT", path, body);
export const del = (path) => api("DELETE", path);

export const enc = encodeURIComponent;
