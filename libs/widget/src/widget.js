/*
 * Pet Adoption widget: a shelter's available animals on any web page.
 *
 *   <div data-pet-adoption data-key="pet_pk_…" data-organization="org_…"></div>
 *   <script src="https://api.example/widget.js" async></script>
 *
 * Plain JavaScript, no framework, no cookies, and no request to anyone but the api that served this
 * script. It runs only with a publishable key (pet_pk_…): a secret key in a page would be anyone's.
 */
(function () {
  'use strict';

  var script = document.currentScript;
  var API = new URL(script ? script.src : location.href).origin;
  var PAGE_SIZE = 20;
  var PUBLISHABLE = /^pet_pk_(live|test)_[A-Za-z0-9]{32,128}$/;
  var LABELS = {
    baby: 'Baby',
    young: 'Young',
    adult: 'Adult',
    senior: 'Senior',
    small: 'Small',
    medium: 'Medium',
    large: 'Large',
    xlarge: 'Extra large',
    male: 'Male',
    female: 'Female',
  };
  var CSS =
    '.pa-widget{font:inherit;color:inherit}' +
    '.pa-widget ul{list-style:none;margin:1em 0;padding:0;display:grid;gap:1em;' +
    'grid-template-columns:repeat(auto-fill,minmax(12em,1fr))}' +
    '.pa-widget li{border:1px solid #ccc;border-radius:.5em;overflow:hidden}' +
    '.pa-widget img,.pa-widget .pa-nophoto{display:block;width:100%;aspect-ratio:4/3;object-fit:cover;background:#eee}' +
    '.pa-widget h3{margin:.5em .75em .25em;font-size:1.1em}' +
    '.pa-widget p{margin:0 .75em .75em}' +
    '.pa-widget a:focus,.pa-widget button:focus,.pa-widget select:focus{outline:3px solid #1a5fb4;outline-offset:2px}' +
    '.pa-widget .pa-message{padding:.75em;border:1px solid #c01c28;border-radius:.5em}';

  /** Elements: el('p', { className: 'x' }, 'text', child, …). */
  function el(tag, properties) {
    var node = document.createElement(tag);
    for (var name in properties || {}) node[name] = properties[name];
    for (var i = 2; i < arguments.length; i++) {
      var child = arguments[i];
      if (child !== undefined && child !== null && child !== '') {
        node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
      }
    }
    return node;
  }

  /** The URL of `rel="next"` in a Link header (RFC 8288), resolved against the api. */
  function nextLink(header) {
    var match = /<([^>]*)>\s*;\s*rel="?next"?/.exec(header || '');
    return match ? new URL(match[1], API).href : null;
  }

  function Widget(root) {
    this.root = root;
    this.key = root.getAttribute('data-key') || '';
    this.organization = root.getAttribute('data-organization');
    this.stopped = false;
  }

  /** Stops for good, saying why: no request is sent after this. */
  Widget.prototype.fail = function (text) {
    this.stopped = true;
    this.root.textContent = '';
    this.root.appendChild(el('p', { className: 'pa-message', role: 'alert' }, text));
  };

  /** GETs an api path or URL with the key; answers { body, next } or stops the widget on a refusal. */
  Widget.prototype.get = function (pathOrUrl) {
    var self = this;
    if (self.stopped) return Promise.reject(new Error('stopped'));
    return fetch(new URL(pathOrUrl, API).href, {
      headers: { Authorization: 'Bearer ' + self.key },
      credentials: 'omit',
      referrerPolicy: 'origin',
    }).then(function (response) {
      return response.json().then(function (body) {
        if (response.ok) return { body: body, next: nextLink(response.headers.get('Link')) };
        var error = new Error(body && body.message ? body.message : 'HTTP ' + response.status);
        error.code = body && body.code;
        throw error;
      });
    });
  };

  /** Refusals that no retry can cure stop the widget; anything else is shown and may be retried. */
  Widget.prototype.handle = function (error) {
    if (this.stopped) return;
    if (error.code === 'origin_not_allowed') {
      this.fail(
        'This website (' +
          location.origin +
          ') is not allowed to show these animals: add it to the allowed origins of its publishable key.',
      );
    } else if (error.code === 'unauthorized' || error.code === 'insufficient_scope') {
      this.fail('The adoption listings cannot be shown: the widget’s key is not valid (' + error.message + ').');
    } else {
      this.status.textContent = 'The animals could not be loaded: ' + error.message;
      this.more.disabled = false;
    }
  };

  Widget.prototype.start = function () {
    var self = this;
    if (!PUBLISHABLE.test(self.key)) {
      self.fail(
        /^pet_(live|test)_/.test(self.key)
          ? 'This widget refuses to run with a secret key, which must never be put in a web page: revoke that ' +
              'key now, and use a publishable key (pet_pk_…).'
          : 'This widget needs a publishable key (pet_pk_…) in data-key.',
      );
      return;
    }
    self.heading = el('h2', {}, 'Animals for adoption');
    self.select = el('select', { id: 'pa-category-' + Math.random().toString(36).slice(2) });
    self.select.appendChild(el('option', { value: '' }, 'All animals'));
    self.list = el('ul', { ariaLabel: 'Animals' });
    self.status = el('p', { role: 'status' });
    self.more = el('button', { type: 'button', hidden: true }, 'More animals');
    self.root.classList.add('pa-widget');
    self.root.textContent = '';
    self.root.append(
      self.heading,
      el('label', { htmlFor: self.select.id }, 'Category ', self.select),
      self.list,
      self.status,
      self.more,
    );
    self.select.addEventListener('change', function () {
      self.load(self.firstPage());
    });
    self.more.addEventListener('click', function () {
      self.load(self.next, true);
    });
    self.status.textContent = 'Loading animals…';
    // One request first: a page the key does not allow is told so after it, and nothing more is asked.
    self
      .get('/v1/categories')
      .then(function (categories) {
        categories.body.forEach(function (category) {
          self.select.appendChild(el('option', { value: String(category.id) }, category.name));
        });
        return self.organization ? self.get('/v1/organizations/' + encodeURIComponent(self.organization)) : null;
      })
      .then(function (organization) {
        if (organization) {
          self.adoptionUrl = organization.body.adoptionUrl;
          self.heading.textContent = 'Animals for adoption at ' + organization.body.name;
        }
        self.load(self.firstPage());
      })
      .catch(function (error) {
        self.handle(error);
      });
  };

  Widget.prototype.firstPage = function () {
    var query = new URLSearchParams({ status: 'available', limit: String(PAGE_SIZE) });
    if (this.organization) query.set('organizationId', this.organization);
    if (this.select.value) query.set('categoryId', this.select.value);
    return '/v1/pets?' + query;
  };

  /** Shows a page of animals: a new list, or (`append`) the next page after the ones shown. */
  Widget.prototype.load = function (url, append) {
    var self = this;
    var request = (self.loading = {});
    self.more.disabled = true;
    self.status.textContent = 'Loading animals…';
    self
      .get(url)
      .then(function (page) {
        // A newer request (another category) wins over this one.
        if (request !== self.loading) return;
        if (!append) self.list.textContent = '';
        var first = null;
        page.body.forEach(function (pet) {
          var item = self.card(pet);
          first = first || item;
          self.list.appendChild(item);
        });
        self.next = page.next;
        self.more.hidden = !page.next;
        self.more.disabled = false;
        var shown = self.list.children.length;
        self.status.textContent =
          shown === 0 ? 'No animals are available just now.' : shown + (page.next ? '+' : '') + ' animals shown.';
        // Keyboard users continue from the first animal the button brought.
        if (append && first) first.querySelector('h3').focus();
      })
      .catch(function (error) {
        if (request === self.loading) self.handle(error);
      });
  };

  Widget.prototype.card = function (pet) {
    var photo = pet.photos && pet.photos[0] && pet.photos[0].urls;
    var described = [pet.breed, LABELS[pet.ageGroup], LABELS[pet.size], LABELS[pet.sex]].filter(Boolean);
    var heading = el('h3', { tabIndex: -1 }, pet.name);
    return el(
      'li',
      {},
      photo
        ? el('img', {
            src: photo.medium,
            alt: pet.breed ? pet.name + ', ' + pet.breed : pet.name,
            loading: 'lazy',
            width: 300,
          })
        : el('div', { className: 'pa-nophoto', ariaHidden: 'true' }),
      heading,
      el('p', {}, described.join(' · ')),
      this.adoptionUrl ? el('p', {}, el('a', { href: this.adoptionUrl }, 'Adopt ' + pet.name)) : null,
    );
  };

  if (!document.getElementById('pa-widget-style')) {
    document.head.appendChild(el('style', { id: 'pa-widget-style' }, CSS));
  }
  var roots = document.querySelectorAll('[data-pet-adoption]');
  for (var i = 0; i < roots.length; i++) new Widget(roots[i]).start();
})();
