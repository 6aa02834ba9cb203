/** The button that applies a filter form (its values go to the URL, so a filtered page can be shared). */
export function FilterSubmit() {
  return (
    <div class="field field-submit">
      <button type="submit" class="primary">
        Filter
      </button>
    </div>
  );
}
