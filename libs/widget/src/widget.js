/*
 * Pet Adoption widget: a shelter's available animals on any web page.
 *
 *   <div data-pet-adoption data-key="pet_pk_…" data-organization="org_…"></div>
 *   <script src="https://api.example/widget.js" async></script>
 *
 * Plain JavaScript, no framework, no cookies, and no request to anyone but the api that served this
 * script. It runs only with a publishable key (pet_pk_…): a secret key in a page would be anyone's.
 * It speaks the language of the page around it (docs/widget.md says how a site chooses or rewords it).
 */
(function () {
  'use strict';

  var script = document.currentScript;
  var API = new URL(script ? script.src : location.href).origin;
  var PAGE_SIZE = 20;
  var PUBLISHABLE = /^pet_pk_(live|test)_[A-Za-z0-9]{32,128}$/;
  /**
   * Every text the widget shows or announces, by language. `{name}` is filled in; a key ending in a plural
   * category (`One`, `Other`, …) is the form for that count; a key ending in `Female` is the form that agrees
   * with a female animal. A key a language lacks falls back to English.
   */
  var MESSAGES = {
    en: {
      heading: 'Animals for adoption',
      headingAt: 'Animals for adoption at {organization}',
      category: 'Category',
      allAnimals: 'All animals',
      categoryDogs: 'Dogs',
      categoryCats: 'Cats',
      categoryRabbits: 'Rabbits',
      categoryBirds: 'Birds',
      categoryReptiles: 'Reptiles',
      categorySmallMammals: 'Small mammals',
      categoryFish: 'Fish',
      list: 'Animals',
      loading: 'Loading animals…',
      more: 'More animals',
      none: 'No animals are available just now.',
      shownOne: '{count} animal shown.',
      shownOther: '{count} animals shown.',
      shownFirstOne: 'The first animal is shown.',
      shownFirstOther: 'The first {count} animals are shown.',
      noPhoto: 'No photo yet',
      noPhotoOf: 'No photo of {name} yet',
      adopt: 'Adopt {name}',
      ageBaby: 'Baby',
      ageYoung: 'Young',
      ageAdult: 'Adult',
      ageSenior: 'Senior',
      sizeSmall: 'Small',
      sizeMedium: 'Medium',
      sizeLarge: 'Large',
      sizeXlarge: 'Extra large',
      sexMale: 'Male',
      sexFemale: 'Female',
      loadFailed: 'The animals could not be loaded. Please try again in a moment.',
      originNotAllowed:
        'This website ({origin}) is not allowed to show these animals: add it to the allowed origins of its ' +
        'publishable key.',
      keyNotValid: 'The adoption listings cannot be shown: the widget’s key is not valid ({code}).',
      secretKey:
        'This widget refuses to run with a secret key, which must never be put in a web page: revoke that key ' +
        'now, and use a publishable key (pet_pk_…).',
      noKey: 'This widget needs a publishable key (pet_pk_…) in data-key.',
    },
    fr: {
      heading: 'Animaux à adopter',
      headingAt: 'Animaux à adopter chez {organization}',
      category: 'Catégorie',
      allAnimals: 'Tous les animaux',
      categoryDogs: 'Chiens',
      categoryCats: 'Chats',
      categoryRabbits: 'Lapins',
      categoryBirds: 'Oiseaux',
      categoryReptiles: 'Reptiles',
      categorySmallMammals: 'Petits mammifères',
      categoryFish: 'Poissons',
      list: 'Animaux',
      loading: 'Chargement des animaux…',
      more: 'Voir plus d’animaux',
      none: 'Aucun animal n’est disponible pour le moment.',
      shownOne: '{count} animal affiché.',
      shownOther: '{count} animaux affichés.',
      shownFirstOne: 'Le premier animal est affiché.',
      shownFirstOther: 'Les {count} premiers animaux sont affichés.',
      noPhoto: 'Pas encore de photo',
      noPhotoOf: 'Pas encore de photo pour {name}',
      adopt: 'Adopter {name}',
      ageBaby: 'Bébé',
      ageYoung: 'Jeune',
      ageAdult: 'Adulte',
      ageSenior: 'Senior',
      sizeSmall: 'Petite taille',
      sizeMedium: 'Taille moyenne',
      sizeLarge: 'Grande taille',
      sizeXlarge: 'Très grande taille',
      sexMale: 'Mâle',
      sexFemale: 'Femelle',
      loadFailed: 'Les animaux n’ont pas pu être chargés. Veuillez réessayer dans un instant.',
      originNotAllowed:
        'Ce site ({origin}) n’est pas autorisé à afficher ces animaux\u00a0: ajoutez-le aux origines autorisées ' +
        'de sa clé publiable.',
      keyNotValid:
        'Les animaux à adopter ne peuvent pas être affichés\u00a0: la clé du widget n’est pas valide ({code}).',
      secretKey:
        'Ce widget refuse de fonctionner avec une clé secrète, qui ne doit jamais figurer dans une page web\u00a0: ' +
        'révoquez cette clé dès maintenant et utilisez une clé publiable (pet_pk_…).',
      noKey: 'Ce widget a besoin d’une clé publiable (pet_pk_…) dans data-key.',
    },
    de: {
      heading: 'Tiere zur Vermittlung',
      headingAt: 'Tiere zur Vermittlung bei {organization}',
      category: 'Kategorie',
      allAnimals: 'Alle Tiere',
      categoryDogs: 'Hunde',
      categoryCats: 'Katzen',
      categoryRabbits: 'Kaninchen',
      categoryBirds: 'Vögel',
      categoryReptiles: 'Reptilien',
      categorySmallMammals: 'Kleintiere',
      categoryFish: 'Fische',
      list: 'Tiere',
      loading: 'Tiere werden geladen …',
      more: 'Weitere Tiere',
      none: 'Zurzeit sind keine Tiere zu vermitteln.',
      shownOne: '{count} Tier angezeigt.',
      shownOther: '{count} Tiere angezeigt.',
      shownFirstOne: 'Das erste Tier wird angezeigt.',
      shownFirstOther: 'Die ersten {count} Tiere werden angezeigt.',
      noPhoto: 'Noch kein Foto',
      noPhotoOf: 'Noch kein Foto von {name}',
      adopt: '{name} adoptieren',
      ageBaby: 'Baby',
      ageYoung: 'Jung',
      ageAdult: 'Erwachsen',
      ageSenior: 'Senior',
      sizeSmall: 'Klein',
      sizeMedium: 'Mittelgroß',
      sizeLarge: 'Groß',
      sizeXlarge: 'Sehr groß',
      sexMale: 'Männlich',
      sexFemale: 'Weiblich',
      loadFailed: 'Die Tiere konnten nicht geladen werden. Bitte versuchen Sie es gleich noch einmal.',
      originNotAllowed:
        'Diese Website ({origin}) darf diese Tiere nicht zeigen: Fügen Sie sie den erlaubten Ursprüngen ' +
        '(allowedOrigins) ihres öffentlichen Schlüssels hinzu.',
      keyNotValid: 'Die Tiere können nicht angezeigt werden: Der Schlüssel des Widgets ist nicht gültig ({code}).',
      secretKey:
        'Dieses Widget läuft nicht mit einem geheimen Schlüssel, der nie in eine Webseite gehört: Widerrufen Sie ' +
        'diesen Schlüssel sofort und verwenden Sie einen öffentlichen Schlüssel (pet_pk_…).',
      noKey: 'Dieses Widget braucht einen öffentlichen Schlüssel (pet_pk_…) in data-key.',
    },
    es: {
      heading: 'Animales en adopción',
      headingAt: 'Animales en adopción en {organization}',
      category: 'Categoría',
      allAnimals: 'Todos los animales',
      categoryDogs: 'Perros',
      categoryCats: 'Gatos',
      categoryRabbits: 'Conejos',
      categoryBirds: 'Aves',
      categoryReptiles: 'Reptiles',
      categorySmallMammals: 'Pequeños mamíferos',
      categoryFish: 'Peces',
      list: 'Animales',
      loading: 'Cargando animales…',
      more: 'Ver más animales',
      none: 'No hay animales disponibles en este momento.',
      shownOne: 'Se muestra {count} animal.',
      shownOther: 'Se muestran {count} animales.',
      shownFirstOne: 'Se muestra el primer animal.',
      shownFirstOther: 'Se muestran los primeros {count} animales.',
      noPhoto: 'Aún sin foto',
      noPhotoOf: 'Aún no hay foto de {name}',
      adopt: 'Adoptar a {name}',
      ageBaby: 'Bebé',
      ageYoung: 'Joven',
      ageAdult: 'Adulto',
      ageAdultFemale: 'Adulta',
      ageSenior: 'Sénior',
      sizeSmall: 'Pequeño',
      sizeSmallFemale: 'Pequeña',
      sizeMedium: 'Mediano',
      sizeMediumFemale: 'Mediana',
      sizeLarge: 'Grande',
      sizeXlarge: 'Muy grande',
      sexMale: 'Macho',
      sexFemale: 'Hembra',
      loadFailed: 'No se pudieron cargar los animales. Vuelva a intentarlo en un momento.',
      originNotAllowed:
        'Este sitio web ({origin}) no tiene permiso para mostrar estos animales: añádalo a los orígenes ' +
        'permitidos (allowedOrigins) de su clave publicable.',
      keyNotValid: 'No se pueden mostrar los animales en adopción: la clave del widget no es válida ({code}).',
      secretKey:
        'Este widget se niega a funcionar con una clave secreta, que nunca debe ponerse en una página web: ' +
        'revoque esa clave ahora y use una clave publicable (pet_pk_…).',
      noKey: 'Este widget necesita una clave publicable (pet_pk_…) en data-key.',
    },
  };
  var CSS =
    '.pa-widget{font:inherit;color:inherit}' +
    '.pa-widget ul{list-style:none;margin:1em 0;padding:0;display:grid;gap:1em;' +
    'grid-template-columns:repeat(auto-fill,minmax(12em,1fr))}' +
    '.pa-widget li{border:1px solid #ccc;border-radius:.5em;overflow:hidden}' +
    '.pa-widget img{display:block;width:100%;aspect-ratio:4/3;object-fit:cover;background:#eee}' +
    '.pa-widget .pa-nophoto{display:flex;flex-direction:column;align-items:center;justify-content:center;' +
    'gap:.4em;aspect-ratio:4/3;background:#f3efe7;color:#4a4036;font-size:.9em;text-align:center}' +
    '.pa-widget .pa-nophoto svg{width:3em;height:3em;fill:#b3a48f}' +
    '.pa-widget h3{margin:.5em .75em .25em;font-size:1.1em}' +
    '.pa-widget li p{margin:0 .75em .75em}' +
    // A ring of its own on whatever is focused from the keyboard (programmatic focus after a key too): blue
    // with a white edge, so that one of the two stands out against any page's background.
    '.pa-widget :focus-visible{outline:3px solid #1a5fb4;outline-offset:2px;box-shadow:0 0 0 2px #fff}' +
    '.pa-widget .pa-message{padding:.75em;border:1px solid #c01c28;border-radius:.5em}';
  /** A paw print, drawn in the placeholder of an animal without a photo. */
  var PAW =
    '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><ellipse cx="12" cy="16.5" rx="5" ry="4.2"/>' +
    '<circle cx="5.2" cy="10.5" r="2.2"/><circle cx="9.3" cy="6.2" r="2.3"/><circle cx="14.7" cy="6.2" r="2.3"/>' +
    '<circle cx="18.8" cy="10.5" r="2.2"/></svg>';

  function has(object, key) {
    return Object.prototype.hasOwnProperty.call(object, key);
  }

  /** `small mammals` → `SmallMammals`: the key of a category or a value after its prefix. */
  function pascal(words) {
    return String(words).replace(/(?:^|[\s_-]+)(\w)/g, function (match, letter) {
      return letter.toUpperCase();
    });
  }

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

  /**
   * The language tag the widget speaks: `data-lang`, else the closest `lang` around it (the page's), when
   * its language is one the widget has (`fr-CA` speaks `fr`, with Canadian numbers); English otherwise.
   */
  function languageOf(root) {
    var host = root.closest('[lang]');
    var requested = root.getAttribute('data-lang') || (host && host.getAttribute('lang')) || '';
    var language = requested.split(/[-_]/)[0].toLowerCase();
    if (!has(MESSAGES, language)) return 'en';
    try {
      return Intl.getCanonicalLocales(requested.replace(/_/g, '-'))[0];
    } catch {
      return language;
    }
  }

  function Widget(root) {
    this.root = root;
    this.key = root.getAttribute('data-key') || '';
    this.organization = root.getAttribute('data-organization');
    this.stopped = false;
    // Styled from the start, so that a refusal before any request is styled too.
    root.classList.add('pa-widget');
    this.locale = languageOf(root);
    this.messages = MESSAGES[this.locale.split('-')[0]];
    this.plurals = new Intl.PluralRules(this.locale);
    this.numbers = new Intl.NumberFormat(this.locale);
    // The site's own wording: data-label-more="…" replaces `more` whatever the language.
    this.labels = {};
    for (var name in root.dataset) {
      if (/^label[A-Z]/.test(name)) this.labels[name.charAt(5).toLowerCase() + name.slice(6)] = root.dataset[name];
    }
    // Screen readers pronounce the widget in its own language, even where it fell back to English.
    root.lang = this.locale;
  }

  /** Whether some text exists under `key`: the site's, the language's or English. */
  Widget.prototype.has = function (key) {
    return has(this.labels, key) || has(this.messages, key) || has(MESSAGES.en, key);
  };

  /** The text under `key` with its `{placeholders}` filled in from `values`. */
  Widget.prototype.t = function (key, values) {
    var text = has(this.labels, key)
      ? this.labels[key]
      : has(this.messages, key)
        ? this.messages[key]
        : MESSAGES.en[key];
    return text.replace(/\{(\w+)\}/g, function (placeholder, name) {
      return values && has(values, name) ? values[name] : placeholder;
    });
  };

  /** The form of `key` for `count` things (`shownOne`, `shownOther`, …), its `{count}` written as the language writes numbers. */
  Widget.prototype.count = function (key, count) {
    var form = key + pascal(this.plurals.select(count));
    return this.t(this.has(form) ? form : key + 'Other', { count: this.numbers.format(count) });
  };

  /** An animal's age group, size or sex, in the form that agrees with its sex where the language has one. */
  Widget.prototype.trait = function (prefix, value, sex) {
    if (!value) return null;
    var key = prefix + pascal(value);
    if (sex === 'female' && this.has(key + 'Female')) return this.t(key + 'Female');
    return has(MESSAGES.en, key) ? this.t(key) : null;
  };

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
      this.fail(this.t('originNotAllowed', { origin: location.origin }));
    } else if (error.code === 'unauthorized' || error.code === 'insufficient_scope') {
      this.fail(this.t('keyNotValid', { code: error.code }));
    } else {
      this.status.textContent = this.t('loadFailed');
      this.more.disabled = false;
    }
  };

  Widget.prototype.start = function () {
    var self = this;
    if (!PUBLISHABLE.test(self.key)) {
      self.fail(self.t(/^pet_(live|test)_/.test(self.key) ? 'secretKey' : 'noKey'));
      return;
    }
    self.heading = el('h2', {}, self.t('heading'));
    self.select = el('select', { id: 'pa-category-' + Math.random().toString(36).slice(2) });
    self.select.appendChild(el('option', { value: '' }, self.t('allAnimals')));
    self.list = el('ul', { ariaLabel: self.t('list') });
    self.status = el('p', { role: 'status' });
    self.more = el('button', { type: 'button', hidden: true }, self.t('more'));
    self.root.textContent = '';
    self.root.append(
      self.heading,
      el('label', { htmlFor: self.select.id }, self.t('category') + ' ', self.select),
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
    self.status.textContent = self.t('loading');
    // One request first: a page the key does not allow is told so after it, and nothing more is asked.
    self
      .get('/v1/categories')
      .then(function (categories) {
        categories.body.forEach(function (category) {
          // The catalogue's categories are named in English; a name the widget does not know is shown as it is.
          var key = 'category' + pascal(category.name);
          var name = has(MESSAGES.en, key) || has(self.labels, key) ? self.t(key) : category.name;
          self.select.appendChild(el('option', { value: String(category.id) }, name));
        });
        return self.organization ? self.get('/v1/organizations/' + encodeURIComponent(self.organization)) : null;
      })
      .then(function (organization) {
        if (organization) {
          self.adoptionUrl = organization.body.adoptionUrl;
          self.heading.textContent = self.t('headingAt', { organization: organization.body.name });
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
    self.status.textContent = self.t('loading');
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
        self.status.textContent = shown === 0 ? self.t('none') : self.count(page.next ? 'shownFirst' : 'shown', shown);
        // Keyboard users continue from the first animal the button brought.
        if (append && first) first.querySelector('h3').focus();
      })
      .catch(function (error) {
        if (request === self.loading) self.handle(error);
      });
  };

  Widget.prototype.card = function (pet) {
    var photo = pet.photos && pet.photos[0] && pet.photos[0].urls;
    var described = [
      pet.breed,
      this.trait('age', pet.ageGroup, pet.sex),
      this.trait('size', pet.size, pet.sex),
      this.trait('sex', pet.sex),
    ].filter(Boolean);
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
        : el(
            'div',
            { className: 'pa-nophoto', role: 'img', ariaLabel: this.t('noPhotoOf', { name: pet.name }) },
            el('span', { innerHTML: PAW }),
            el('span', {}, this.t('noPhoto')),
          ),
      heading,
      el('p', {}, described.join(' · ')),
      this.adoptionUrl ? el('p', {}, el('a', { href: this.adoptionUrl }, this.t('adopt', { name: pet.name }))) : null,
    );
  };

  if (!document.getElementById('pa-widget-style')) {
    document.head.appendChild(el('style', { id: 'pa-widget-style' }, CSS));
  }
  var roots = document.querySelectorAll('[data-pet-adoption]');
  for (var i = 0; i < roots.length; i++) new Widget(roots[i]).start();
})();
