/**
 * The form in which two email addresses are compared: one account per canonical form. NFKC folds
 * compatibility characters (fullwidth `ａ` is `a`, the ligature `ﬁ` is `fi`); upper- then lower-casing
 * applies Unicode's full case mappings (`ß` and `SS` are `ss`, dotless `ı` and `I` are `i`, final `ς`
 * is `σ`), which lower-casing alone does not. Normalised again, since case mapping can leave a
 * sequence that NFKC composes. One round is not always its own fixed point (capital `ẞ` lower-cases to
 * `ß`, whose upper case is `SS`), so rounds repeat until the form stops changing. Changing this function
 * needs a migration that recomputes `accounts.email_canonical`.
 */
export function canonicalEmail(email: string): string {
  let form = email;
  for (let previous = ''; form !== previous;) {
    previous = form;
    form = form.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');
  }
  return form;
}
